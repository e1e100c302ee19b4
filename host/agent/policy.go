package agent

import (
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/configs"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/capability"
	"github.com/pgrst-lab/pgrst-lab/lab/postgrest"
)

// Policy is what a variant may change on this agent's host. It comes from
// the agent's config, never from a request. Every setting is first checked
// against package capability (the one table lab validate and both
// supervisors use); the policy then narrows what the table allows.
type Policy struct {
	// PostgRESTKeys, when not empty, are the only PostgREST keys allowed.
	// Privileged keys (roles, schemas, jwt-secret, app.settings.x, a full
	// db-uri; see package capability) are allowed only when listed here.
	// Keys are listed by name; the one pattern is "app.settings.*", every
	// app.settings.x key (postgrest.Covers).
	PostgRESTKeys []string `toml:"postgrest_keys"`
	// PostgreSQL settings variants may change (ALTER SYSTEM).
	PostgreSQL []string `toml:"postgresql_settings"`
	// Env are the allowed environment variables, by exact name; a PGRST_*
	// variable also gets every rule of the key it sets.
	Env []string `toml:"env"`
	// DropIn are the allowed unit settings (e.g. CPUAffinity, MemoryMax).
	DropIn []string `toml:"dropin"`
	// Binaries are the absolute paths a variant may run instead of the target.
	Binaries []string `toml:"binaries"`
	// Args allows extra command-line arguments for the target.
	Args bool `toml:"args"`
	// AllowUnknownKeys lets PostgREST keys the catalogue does not know through.
	AllowUnknownKeys bool `toml:"-"`
}

// DefaultPolicy is the policy of an agent whose config says nothing:
// settings that tune performance, nothing that names a file, changes a
// role or runs code.
func DefaultPolicy() Policy {
	return Policy{
		PostgreSQL: slices.Clone(capability.DefaultPostgreSQL),
		Env:        slices.Clone(capability.DefaultEnv),
		DropIn:     capability.DefaultDropIn(),
	}
}

// PolicyError is a variant the policy refuses; Status is the HTTP status.
type PolicyError struct {
	Status int
	Msg    string
}

func (e *PolicyError) Error() string { return e.Msg }

func forbidden(format string, args ...any) *PolicyError {
	return &PolicyError{Status: http.StatusForbidden, Msg: fmt.Sprintf(format, args...)}
}

func invalid(format string, args ...any) *PolicyError {
	return &PolicyError{Status: http.StatusUnprocessableEntity, Msg: fmt.Sprintf(format, args...)}
}

// fromCapability turns a capability refusal into a PolicyError: never ->
// 403, malformed or unknown -> 422.
func fromCapability(err error) error {
	var ce *capability.Error
	if !errors.As(err, &ce) {
		return err
	}
	if ce.Code == capability.Never {
		return forbidden("%s", ce.Error())
	}
	return invalid("%s", ce.Error())
}

// Check refuses a variant that goes beyond the policy. It reports the
// first problem, naming the table and key.
func (p Policy) Check(v lab.Variant) error {
	if err := cleanText("name", v.Name); err != nil {
		return err
	}
	for _, k := range slices.Sorted(maps.Keys(v.PostgREST)) {
		if err := p.checkPostgREST("postgrest."+k, k, v.PostgREST[k]); err != nil {
			return err
		}
	}
	for _, k := range slices.Sorted(maps.Keys(v.PostgreSQL)) {
		if err := capability.PostgreSQL(k, v.PostgreSQL[k]); err != nil {
			return fromCapability(err)
		}
		if !slices.Contains(p.PostgreSQL, k) {
			return forbidden("postgresql.%s: not allowed on this agent (allowed: %s)", k, list(p.PostgreSQL))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(v.Env)) {
		if err := capability.EnvName(k); err != nil {
			return fromCapability(err)
		}
		if !slices.Contains(p.Env, k) {
			return forbidden("env.%s: not allowed on this agent (allowed, by exact name: %s)", k, list(p.Env))
		}
		key, _, err := capability.Env(k, v.Env[k])
		if err != nil {
			return fromCapability(err)
		}
		if key != "" {
			if err := p.checkPostgREST("env."+k+" (sets "+key+")", key, v.Env[k]); err != nil {
				return err
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(v.DropIn)) {
		if err := capability.DropIn(k, v.DropIn[k]); err != nil {
			return fromCapability(err)
		}
		if !slices.Contains(p.DropIn, k) {
			return forbidden("dropin.%s: not allowed on this agent (allowed: %s)", k, list(p.DropIn))
		}
	}
	if v.Unsandboxed {
		return forbidden("sandbox = false: an agent always runs the target in the lab's sandbox (measure its cost with a local run)")
	}
	if v.PGCPUAffinity != "" {
		if err := capability.PGCPUAffinity(v.PGCPUAffinity); err != nil {
			return fromCapability(err)
		}
		if !slices.Contains(p.DropIn, "CPUAffinity") {
			return forbidden("partition.postgresql: pinning PostgreSQL is not allowed on this agent (it needs CPUAffinity among its drop-in settings; allowed: %s)", list(p.DropIn))
		}
	}
	if v.Binary != "" {
		if err := capability.Binary(v.Binary); err != nil {
			return fromCapability(err)
		}
		if !slices.Contains(p.Binaries, v.Binary) {
			return forbidden("binary %q: not in this agent's allowed binaries (%s)", v.Binary, list(p.Binaries))
		}
	}
	if len(v.Args) > 0 && !p.Args {
		return forbidden("args: extra arguments are not allowed on this agent (set allow.args = true in its config)")
	}
	if err := capability.Args(v.Args); err != nil {
		return fromCapability(err)
	}
	return nil
}

// checkPostgREST applies the capability table, the catalogue (unknown and
// misspelled keys are 422 with a suggestion) and the agent's list.
func (p Policy) checkPostgREST(where, k, val string) error {
	class, err := capability.PostgRESTKey(k, val)
	if err != nil {
		return fromCapability(err)
	}
	if err := configs.ValidateSetting(k, val, p.AllowUnknownKeys); err != nil {
		return invalid("%s: %v", where, err)
	}
	listed := slices.ContainsFunc(p.PostgRESTKeys, func(entry string) bool { return postgrest.Covers(entry, k) })
	if len(p.PostgRESTKeys) > 0 && !listed {
		return forbidden("%s: not allowed on this agent (allowed: %s)", where, list(p.PostgRESTKeys))
	}
	if class == capability.Privileged && !listed {
		if k == "db-uri" {
			return forbidden("%s: only \"tcp\" or \"unix\" (derived from the agent's own PostgreSQL); a full URI needs db-uri in allow.postgrest_keys", where)
		}
		return forbidden("%s: %s; allowed only when the agent's config lists it in allow.postgrest_keys", where, capability.PrivilegeReason(k))
	}
	return nil
}

// cleanText refuses control and other non-printing characters: a line
// break in a value could otherwise start a new line in a config file or
// unit.
func cleanText(where, s string) error {
	if err := capability.Text(where, s); err != nil {
		return invalid("%s", err.Error())
	}
	return nil
}

func list(xs []string) string {
	if len(xs) == 0 {
		return "none"
	}
	return strings.Join(xs, ", ")
}
