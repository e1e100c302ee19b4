package reconcile

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/pgrst-lab/pgrst-lab/configs"
	"github.com/pgrst-lab/pgrst-lab/lab/capability"
)

// roleCheckTimeout bounds each connection checkRoles opens.
const roleCheckTimeout = 15 * time.Second

// anonPowers lists the roles with SUPERUSER or BYPASSRLS that the role
// named $1 is, or is a member of (pg_has_role: also through roles it is a
// member of).
const anonPowers = `SELECT coalesce(pg_catalog.string_agg(r.rolname, ', ' ORDER BY r.rolname), '')
FROM pg_catalog.pg_roles r
WHERE (r.rolsuper OR r.rolbypassrls) AND pg_catalog.pg_has_role($1::pg_catalog.name, r.oid, 'MEMBER')`

// loginPowers is the session's user, its current user, and the roles with
// SUPERUSER or BYPASSRLS either is, or is a member of.
//
// Every name is schema-qualified: the URI is the variant's, and its
// options may set a search_path that puts a schema of its own (with a
// pg_has_role that always says no) before pg_catalog.
const loginPowers = `SELECT session_user::pg_catalog.text, current_user::pg_catalog.text,
  coalesce(pg_catalog.string_agg(r.rolname, ', ' ORDER BY r.rolname), '')
FROM pg_catalog.pg_roles r
WHERE (r.rolsuper OR r.rolbypassrls)
  AND (pg_catalog.pg_has_role(session_user, r.oid, 'MEMBER') OR pg_catalog.pg_has_role(current_user, r.oid, 'MEMBER'))`

// checkRoles refuses a variant whose PostgREST would log in (db-uri,
// PGRST_DB_URI) or answer anonymous requests (db-anon-role,
// PGRST_DB_ANON_ROLE) as a role with SUPERUSER or BYPASSRLS, or as a
// member of such a role, when that differs from the original config. The
// database says, not the role's name: a db-uri is connected to as
// PostgREST would (the same URI, from the same user on this host) and asked
// for its session_user and current_user (a startup option may SET ROLE);
// an anonymous role is looked up over the admin connection. A refusal is a
// capability.Never error (HTTP 403 from the agent); a db-uri that cannot be
// connected to is refused too, as what it logs in as cannot be known.
func (l *Server) checkRoles(ctx context.Context, in intent) error {
	orig, err := configs.Parse(l.cfg.Config, l.original)
	if err != nil {
		return err
	}
	want, err := configs.Parse(l.cfg.Config, in.want.config)
	if err != nil {
		return err
	}
	env := map[string]string{}
	for _, kv := range in.want.env {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	var specEnv map[string]string
	if l.cfg.TargetSpec != nil {
		specEnv = l.cfg.TargetSpec.Environment
	}
	changed := func(key, envName string) []string {
		o, _ := orig.Get(key)
		var out []string
		if w, _ := want.Get(key); w.String() != o.String() {
			out = append(out, w.String())
		}
		if v, ok := env[envName]; ok && v != o.String() && v != specEnv[envName] {
			out = append(out, v)
		}
		return out
	}
	for _, uri := range changed("db-uri", "PGRST_DB_URI") {
		if err := checkLogin(ctx, uri); err != nil {
			return err
		}
	}
	anon := changed("db-anon-role", "PGRST_DB_ANON_ROLE")
	if len(anon) == 0 {
		return nil
	}
	cctx, cancel := context.WithTimeout(ctx, roleCheckTimeout)
	defer cancel()
	conn, err := l.connect(cctx)
	if err != nil {
		return fmt.Errorf("db-anon-role: cannot check the role's powers: %w", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	for _, role := range anon {
		if err := checkAnon(cctx, conn, role); err != nil {
			return err
		}
	}
	return nil
}

// checkAnon refuses an anonymous role that is, or is a member of, a role
// with SUPERUSER or BYPASSRLS; conn may be any connection (pg_roles and
// pg_has_role answer every user). A role that does not exist passes:
// PostgREST answers anonymous requests with an error, nothing to gain.
func checkAnon(ctx context.Context, conn *pgx.Conn, role string) error {
	var exists bool
	if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = $1)", role).Scan(&exists); err != nil {
		return fmt.Errorf("db-anon-role: look up role %q: %w", role, err)
	}
	if !exists {
		return nil
	}
	var powers string
	if err := conn.QueryRow(ctx, anonPowers, role).Scan(&powers); err != nil {
		return fmt.Errorf("db-anon-role: check role %q: %w", role, err)
	}
	if powers != "" {
		return &capability.Error{Code: capability.Never, Where: "postgrest.db-anon-role",
			Msg: fmt.Sprintf("role %q is, or is a member of, %s (SUPERUSER or BYPASSRLS): anonymous requests must not run with those powers", role, powers)}
	}
	return nil
}

// checkLogin connects with uri as PostgREST would and refuses it when its
// session or current user has SUPERUSER or BYPASSRLS, itself or through a
// role it is a member of.
func checkLogin(ctx context.Context, uri string) error {
	shown := capability.RedactURI(uri)
	if strings.HasPrefix(uri, "@") {
		return &capability.Error{Code: capability.Never, Where: "postgrest.db-uri", Msg: "a file (@path) cannot be checked; give the URI"}
	}
	cctx, cancel := context.WithTimeout(ctx, roleCheckTimeout)
	defer cancel()
	conn, err := pgx.Connect(cctx, uri)
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && strings.HasPrefix(pgErr.Code, "28") { // invalid_authorization_specification, invalid_password
		return &capability.Error{Code: capability.Never, Where: "postgrest.db-uri",
			Msg: fmt.Sprintf("%s: PostgreSQL refuses the login (%s), so PostgREST could not use it either (the lab's stack lets the target in as authenticator only)", shown, pgErr.Message)}
	}
	if err != nil {
		return fmt.Errorf("db-uri %s: cannot check the role it logs in as: %w", shown, connectErr(err))
	}
	defer conn.Close(context.WithoutCancel(ctx))
	return checkLoginOn(cctx, conn, shown)
}

// connectErr is an error of pgx.Connect fit to show. pgx's parse errors
// quote the connection string with a best-effort redaction, which leaves
// the tail of a quoted password with an escaped quote ('se\'cret') or of
// one an unescaped space cuts; such an error keeps only what was wrong
// (the caller names the string as RedactURI shows it).
func connectErr(err error) error {
	if pce, ok := errors.AsType[*pgconn.ParseConfigError](err); ok {
		c := *pce
		c.ConnString = ""
		return errors.New(strings.Replace(c.Error(), "cannot parse ``: ", "cannot parse it: ", 1))
	}
	return err
}

// checkLoginOn is checkLogin on conn, a connection opened with the db-uri
// shown (redacted) in errors.
func checkLoginOn(ctx context.Context, conn *pgx.Conn, shown string) error {
	var session, current, powers string
	if err := conn.QueryRow(ctx, loginPowers).Scan(&session, &current, &powers); err != nil {
		return fmt.Errorf("db-uri %s: check the role it logs in as: %w", shown, err)
	}
	if powers != "" {
		who := fmt.Sprintf("%q", session)
		if current != session {
			who += fmt.Sprintf(" (current_user %q)", current)
		}
		return &capability.Error{Code: capability.Never, Where: "postgrest.db-uri",
			Msg: fmt.Sprintf("logs in as %s, which is, or is a member of, %s (SUPERUSER or BYPASSRLS): PostgREST must not run with those powers", who, powers)}
	}
	return nil
}
