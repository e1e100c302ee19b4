package agent

import (
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// Policy is what a variant may change on this agent's host. It comes from
// the agent's config, never from a request. The zero value allows
// PostgREST keys only (the configs catalogue still validates them).
type Policy struct {
	// PostgRESTKeys, when not empty, are the only PostgREST keys allowed.
	PostgRESTKeys []string `toml:"postgrest_keys"`
	// PostgreSQL settings variants may change (ALTER SYSTEM).
	PostgreSQL []string `toml:"postgresql_settings"`
	// Env are the allowed environment names; a trailing * matches a prefix.
	Env []string `toml:"env"`
	// DropIn are the allowed unit settings (e.g. CPUAffinity, MemoryMax).
	DropIn []string `toml:"dropin"`
	// Binaries are the absolute paths a variant may run instead of the target.
	Binaries []string `toml:"binaries"`
	// Args allows extra command-line arguments for the target.
	Args bool `toml:"args"`
}

// DefaultPolicy is the policy of an agent whose config says nothing:
// settings that tune performance, nothing that names a file or runs code.
func DefaultPolicy() Policy {
	return Policy{
		PostgreSQL: []string{"synchronous_commit", "shared_buffers", "work_mem", "effective_cache_size", "max_connections",
			"jit", "random_page_cost", "plan_cache_mode", "max_parallel_workers_per_gather", "wal_buffers", "commit_delay",
			"huge_pages", "effective_io_concurrency"},
		Env:    []string{"PGRST_*", "GHCRTS"},
		DropIn: []string{"CPUAffinity", "AllowedCPUs", "CPUQuota", "CPUWeight", "MemoryMax", "MemoryHigh", "Nice", "TasksMax", "LimitNOFILE"},
	}
}

// pathKeys are PostgREST keys whose value names a file or socket path.
var pathKeys = []string{"server-unix-socket", "server-unix-socket-mode", "db-config", "admin-server-host", "server-host", "server-port", "admin-server-port"}

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

// Check refuses a variant that goes beyond the policy. It reports the
// first problem, naming the table and key.
func (p Policy) Check(v lab.Variant) error {
	if err := cleanText("name", v.Name); err != nil {
		return err
	}
	for _, k := range keys(v.PostgREST) {
		if err := p.checkPostgREST(k, v.PostgREST[k]); err != nil {
			return err
		}
	}
	for _, k := range keys(v.PostgreSQL) {
		if !slices.Contains(p.PostgreSQL, k) {
			return forbidden("postgresql.%s: not allowed on this agent (allowed: %s)", k, list(p.PostgreSQL))
		}
		if err := cleanText("postgresql."+k, v.PostgreSQL[k]); err != nil {
			return err
		}
	}
	for _, k := range keys(v.Env) {
		if !matchAny(p.Env, k) {
			return forbidden("env.%s: not allowed on this agent (allowed: %s)", k, list(p.Env))
		}
		if err := cleanText("env."+k, v.Env[k]); err != nil {
			return err
		}
	}
	for _, k := range keys(v.DropIn) {
		if !slices.Contains(p.DropIn, k) {
			return forbidden("dropin.%s: not allowed on this agent (allowed: %s)", k, list(p.DropIn))
		}
		if err := cleanText("dropin."+k, v.DropIn[k]); err != nil {
			return err
		}
	}
	if v.Binary != "" && !slices.Contains(p.Binaries, v.Binary) {
		return forbidden("binary %q: not in this agent's allowed binaries (%s)", v.Binary, list(p.Binaries))
	}
	if len(v.Args) > 0 && !p.Args {
		return forbidden("args: extra arguments are not allowed on this agent (set allow.args = true in its config)")
	}
	for i, a := range v.Args {
		if err := cleanText(fmt.Sprintf("args[%d]", i), a); err != nil {
			return err
		}
	}
	return nil
}

func (p Policy) checkPostgREST(k, val string) error {
	if err := cleanText("postgrest key", k); err != nil {
		return err
	}
	if slices.Contains(pathKeys, k) {
		return forbidden("postgrest.%s: names an address or path; fixed by the agent's host, not by variants", k)
	}
	if len(p.PostgRESTKeys) > 0 && !slices.Contains(p.PostgRESTKeys, k) {
		return forbidden("postgrest.%s: not allowed on this agent (allowed: %s)", k, list(p.PostgRESTKeys))
	}
	if k == "db-uri" && val != "tcp" && val != "unix" && !slices.Contains(p.PostgRESTKeys, k) {
		return forbidden("postgrest.db-uri: only \"tcp\" or \"unix\" (derived from the agent's own PostgreSQL); a full URI needs db-uri in allow.postgrest_keys")
	}
	if strings.HasPrefix(val, "@") {
		return forbidden("postgrest.%s: @file values read files on the agent's host and are refused", k)
	}
	return cleanText("postgrest."+k, val)
}

// cleanText refuses control characters: a line break in a value could
// otherwise start a new line in a config file or unit.
func cleanText(where, s string) error {
	for i, r := range s {
		if r < 0x20 || r == 0x7f {
			return invalid("%s: control character %q at byte %d (values are single-line text)", where, r, i)
		}
	}
	return nil
}

func matchAny(patterns []string, name string) bool {
	for _, p := range patterns {
		if pre, ok := strings.CutSuffix(p, "*"); ok {
			if strings.HasPrefix(name, pre) && len(name) > len(pre) {
				return true
			}
		} else if p == name {
			return true
		}
	}
	return false
}

func keys(m map[string]string) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func list(xs []string) string {
	if len(xs) == 0 {
		return "none"
	}
	return strings.Join(xs, ", ")
}
