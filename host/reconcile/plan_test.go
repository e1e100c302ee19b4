package reconcile

import (
	"reflect"
	"strings"
	"testing"
)

// TestPlan checks the steps between applied values; no systemd or
// PostgreSQL involved.
func TestPlan(t *testing.T) {
	const conf = "db-uri = \"postgres://authenticator@localhost/chinook\"\ndb-prepared-statements = true\nlog-level = \"crit\"\ndb-pool = 10\n"
	with := func(old, new string) []byte { return []byte(strings.Replace(conf, old, new, 1)) }
	argv := []string{"/usr/bin/postgrest", "/etc/postgrest.conf"}
	orig := applied{config: []byte(conf), argv: argv}
	variant := applied{config: with("db-pool = 10", "db-pool = 4"), pg: pgApplied{set: map[string]string{"shared_buffers": "1GB"}},
		pgPin: "1", dropIn: map[string]string{"LimitNOFILE": "4096"}, env: []string{"GHCRTS=-N1"},
		argv: []string{"/tmp/postgrest-branch", "/etc/postgrest.conf"}}
	real := reloadRules{path: "postgrest.conf", reloads: true}
	edit := func(a applied, f func(*applied)) applied { f(&a); return a }

	for _, c := range []struct {
		name      string
		cur, want applied
		rules     reloadRules
		plan      plan
	}{
		{"nothing differs: no step, a fresh restart", orig, orig, real, plan{}},
		{"same variant twice: no step, a fresh restart", variant, variant, real, plan{}},
		{"reloadable key: reload", orig, edit(orig, func(a *applied) { a.config = with("true", "false") }), real,
			plan{reload: []string{"db-prepared-statements"}}},
		{"reloadable key on postgrest-mini or a unit the lab does not own: restart", orig,
			edit(orig, func(a *applied) { a.config = with("true", "false") }), reloadRules{path: "postgrest.conf"}, plan{}},
		{"a key that is not reloadable: restart", orig,
			edit(orig, func(a *applied) { a.config = []byte(strings.Replace(string(with("true", "false")), "crit", "info", 1)) }), real, plan{}},
		{"after a failed restart a reloadable key restarts", edit(orig, func(a *applied) { a.unknown = true }),
			edit(orig, func(a *applied) { a.config = with("true", "false") }), real, plan{}},
		{"env: set, restart", orig, edit(orig, func(a *applied) { a.env = []string{"A=1"} }), real, plan{env: true}},
		{"env with a reloadable key: restart", orig,
			edit(orig, func(a *applied) { a.config, a.env = with("true", "false"), []string{"A=1"} }), real, plan{env: true}},
		{"PostgreSQL settings: set, restart (PostgreSQL too when a setting says so)", orig,
			edit(orig, func(a *applied) { a.pg.set = map[string]string{"shared_buffers": "1GB"} }), real, plan{pgSet: true}},
		{"PostgreSQL settings to others: reset, set", edit(orig, func(a *applied) { a.pg.set = map[string]string{"work_mem": "8MB"} }),
			edit(orig, func(a *applied) { a.pg.set = map[string]string{"work_mem": "16MB"} }), real, plan{pgReset: true, pgSet: true}},
		{"PostgreSQL settings to none: reset; no reload", edit(orig, func(a *applied) { a.pg.set = map[string]string{"work_mem": "8MB"} }),
			edit(orig, func(a *applied) { a.config = with("true", "false") }), real, plan{pgReset: true}},
		{"failed PostgreSQL settings: reset, set again", edit(variant, func(a *applied) { a.pg.broken = true }), variant, real,
			plan{pgReset: true, pgSet: true}},
		{"pin: PostgreSQL restarts, the target restarts", orig, edit(orig, func(a *applied) { a.pgPin = "0-1" }), real,
			plan{pin: true, pgRestart: true}},
		{"unpin: PostgreSQL restarts", edit(orig, func(a *applied) { a.pgPin = "0-1" }), orig, real, plan{pin: true, pgRestart: true}},
		{"failed PostgreSQL restart: it restarts again", edit(orig, func(a *applied) { a.pgUnknown = true }), orig, real, plan{pgRestart: true}},
		{"drop-in: set", orig, edit(orig, func(a *applied) { a.dropIn = map[string]string{"LimitNOFILE": "4096"} }), real, plan{dropIn: setDropIn}},
		{"another drop-in keeps the environment", edit(orig, func(a *applied) { a.dropIn, a.env = map[string]string{"LimitNOFILE": "4096"}, []string{"A=1"} }),
			edit(orig, func(a *applied) { a.dropIn, a.env = map[string]string{"LimitNOFILE": "8192"}, []string{"A=1"} }), real, plan{dropIn: setDropIn}},
		{"removing the drop-in drops the environment too", edit(orig, func(a *applied) { a.dropIn, a.env = map[string]string{"LimitNOFILE": "4096"}, []string{"A=1"} }),
			orig, real, plan{dropIn: removeDropIn}},
		{"removing the drop-in, keeping the environment: set it again", edit(orig, func(a *applied) { a.dropIn, a.env = map[string]string{"LimitNOFILE": "4096"}, []string{"A=1"} }),
			edit(orig, func(a *applied) { a.env = []string{"A=1"} }), real, plan{dropIn: removeDropIn, env: true}},
		{"environment to none", edit(orig, func(a *applied) { a.env = []string{"A=1"} }), orig, real, plan{env: true}},
		{"binary: reinstall", orig, edit(orig, func(a *applied) { a.argv = variant.argv }), real, plan{install: true}},
		{"back to the original from everything", variant, orig, real,
			plan{pin: true, pgReset: true, pgRestart: true, dropIn: removeDropIn, install: true}},
	} {
		if got := planFor(c.cur, c.want, c.rules); !reflect.DeepEqual(got, c.plan) {
			t.Errorf("%s:\n got %+v\nwant %+v", c.name, got, c.plan)
		}
	}
}
