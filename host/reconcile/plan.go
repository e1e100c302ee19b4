package reconcile

import (
	"bytes"
	"maps"
	"slices"
	"sort"

	"github.com/pgrst-lab/pgrst-lab/configs"
	"github.com/pgrst-lab/pgrst-lab/lab/postgrest"
)

// dropInStep is what a plan does with the lab's drop-in on the target unit.
type dropInStep int

const (
	keepDropIn   dropInStep = iota
	setDropIn               // write the wanted [Service] settings
	removeDropIn            // remove it, and with it the unit's extra environment
)

// plan is the steps from one applied value to another, in the order the
// executor takes them. Whatever else it does, the target restarts, unless
// it can reload its config (reload): every Apply hands the trials a target
// freshly started or reloaded with the variant, even when nothing differs.
type plan struct {
	pin     bool // set or remove the PostgreSQL unit's CPUAffinity drop-in
	pgReset bool // reset the PostgreSQL settings a previous variant set
	pgSet   bool // set the wanted PostgreSQL settings
	// pgRestart: PostgreSQL restarts, for the pin or because its last
	// restart failed; a setting that needs a restart adds one when set.
	pgRestart bool
	dropIn    dropInStep
	env       bool // set the target unit's environment (after dropIn)
	install   bool // reinstall the target unit with the wanted command line
	// reload: the target reloads its config (SIGUSR2) instead of
	// restarting; these keys differ, all of them reloadable.
	reload []string
}

// reloadRules is what the plan needs to know of the target: its config
// file's name (for parse errors) and whether it can reload its config at
// all: it is the real PostgREST (postgrest-mini does not reload its
// config) and the lab owns its unit and log (to see "Config reloaded").
type reloadRules struct {
	path    string
	reloads bool
}

func (l *Server) reloadRules() reloadRules {
	spec := l.cfg.TargetSpec
	return reloadRules{path: l.cfg.Config, reloads: !l.cfg.Reference && spec != nil && spec.LogFile != ""}
}

// planFor is the steps from cur to want: nothing touches what is the same
// in both. The target reloads only when the rules allow it, what runs is
// known (no failed restart), every part but the config is the same and
// every PostgREST key that differs is reloadable per the catalogue.
func planFor(cur, want applied, r reloadRules) plan {
	var p plan
	p.pin = cur.pgPin != want.pgPin
	if !cur.pg.same(want.pg) {
		p.pgReset = cur.pg.dirty()
		p.pgSet = len(want.pg.set) > 0
	}
	p.pgRestart = p.pin || cur.pgUnknown
	env := cur.env
	switch {
	case len(want.dropIn) > 0 && !maps.Equal(cur.dropIn, want.dropIn):
		p.dropIn = setDropIn
	case len(want.dropIn) == 0 && len(cur.dropIn) > 0:
		p.dropIn, env = removeDropIn, nil
	}
	p.env = !slices.Equal(env, want.env)
	p.install = !slices.Equal(cur.argv, want.argv) || cur.unsandboxed != want.unsandboxed
	if r.reloads && !cur.unknown && p.onlyConfig() {
		p.reload = reloadableKeys(r.path, cur.config, want.config)
	}
	return p
}

// onlyConfig reports whether the plan changes nothing but the config.
func (p plan) onlyConfig() bool {
	return !p.pin && !p.pgReset && !p.pgSet && !p.pgRestart && p.dropIn == keepDropIn && !p.env && !p.install
}

// reloadableKeys returns the PostgREST keys in which two configs differ
// when all of them are reloadable, else nil (nil too when none differ).
// Which keys PostgREST 13 really reloads is proven on the binary by
// TestReloadableKeysOnRealPostgREST.
func reloadableKeys(path string, running, wanted []byte) []string {
	if bytes.Equal(running, wanted) {
		return nil
	}
	from, err1 := configs.Parse(path, running)
	to, err2 := configs.Parse(path, wanted)
	if err1 != nil || err2 != nil {
		return nil
	}
	seen := map[string]bool{}
	var diff []string
	for _, k := range append(from.Keys(), to.Keys()...) {
		if seen[k] {
			continue
		}
		seen[k] = true
		a, _ := from.Get(k)
		b, _ := to.Get(k)
		if a.String() == b.String() {
			continue
		}
		if key, ok := postgrest.Lookup(k); !ok || !key.Reloadable {
			return nil
		}
		diff = append(diff, k)
	}
	sort.Strings(diff)
	return diff
}
