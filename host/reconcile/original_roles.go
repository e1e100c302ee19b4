package reconcile

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/jackc/pgx/v5"

	"github.com/pgrst-lab/pgrst-lab/configs"
	"github.com/pgrst-lab/pgrst-lab/lab/capability"
)

// RoleAdvice says what a target's roles should be instead of a superuser:
// PostgREST's own recommendation.
const RoleAdvice = "give db-uri an authenticator role with LOGIN NOINHERIT and neither SUPERUSER nor BYPASSRLS " +
	"(CREATE ROLE authenticator LOGIN NOINHERIT; GRANT web_anon TO authenticator), and db-anon-role a role without them"

// OriginalRoleError is the target's own config logging PostgREST in, or
// answering anonymous requests, as a role with SUPERUSER or BYPASSRLS.
type OriginalRoleError struct {
	Config string            // the PostgREST config file
	Key    string            // db-uri or db-anon-role
	Err    *capability.Error // the check's refusal, naming the role
}

func (e *OriginalRoleError) Error() string {
	return fmt.Sprintf("%s: %s: %s; %s", e.Config, e.Key, e.Err.Msg, RoleAdvice)
}

func (e *OriginalRoleError) Unwrap() error { return e.Err }

// CheckOriginalRoles checks the target's own config as checkRoles checks a
// variant's: with the settings PostgREST reads (configs.Load: imports,
// $(VAR)s, and the PGRST_* variables of a unit the lab owns; a unit it
// does not own is read from its config file alone), it connects with the
// db-uri as PostgREST would and refuses (*OriginalRoleError) when the
// session or current user is, or is a member of, a SUPERUSER or BYPASSRLS
// role, and the same for db-anon-role. checkRoles trusts the original, so
// `lab agent` calls this before it serves; `lab run` warns.
// A db-uri that cannot be connected to is an error too (what it logs in as
// cannot be known).
func (l *Server) CheckOriginalRoles(ctx context.Context) error {
	s, err := configs.Load(l.cfg.Config, l.targetEnviron())
	if err != nil {
		return fmt.Errorf("check the roles of %s: %w", l.cfg.Config, err)
	}
	uri := s.String("db-uri", "postgresql://")
	shown := capability.RedactURI(uri)
	cctx, cancel := context.WithTimeout(ctx, roleCheckTimeout)
	defer cancel()
	conn, err := pgx.Connect(cctx, uri)
	if err != nil {
		return fmt.Errorf("%s: db-uri %s: cannot check the role PostgREST logs in as: %w", l.cfg.Config, shown, connectErr(err))
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if err := checkLoginOn(cctx, conn, shown); err != nil {
		return l.originalErr("db-uri", err)
	}
	if anon := s.String("db-anon-role", ""); anon != "" {
		if err := checkAnon(cctx, conn, anon); err != nil {
			return l.originalErr("db-anon-role", err)
		}
	}
	return nil
}

// targetEnviron is the environment of the target's unit when the lab owns
// it ("NAME=value", sorted), else nil.
func (l *Server) targetEnviron() []string {
	spec := l.cfg.TargetSpec
	if spec == nil {
		return nil
	}
	env := make([]string, 0, len(spec.Environment))
	for k, v := range spec.Environment {
		env = append(env, k+"="+v)
	}
	sort.Strings(env)
	return env
}

// originalErr is a refusal of the original's key as an
// *OriginalRoleError, any other error (a failed query) naming the config.
func (l *Server) originalErr(key string, err error) error {
	if ce, ok := errors.AsType[*capability.Error](err); ok {
		return &OriginalRoleError{Config: l.cfg.Config, Key: key, Err: ce}
	}
	return fmt.Errorf("%s: %w", l.cfg.Config, err)
}
