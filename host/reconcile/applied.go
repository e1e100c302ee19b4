package reconcile

import (
	"maps"
	"slices"
)

// applied is what the lab has put in place on this machine, as one value:
// Apply compares it with what a variant wants (wanted), plans the steps
// between them (plan) and the executor updates it for each step that
// succeeded. Its zero parts are the original: no PostgreSQL settings, no
// pinning, no drop-in, no extra environment.
type applied struct {
	config []byte            // the PostgREST config the target last started or reloaded with
	pg     pgApplied         // PostgreSQL settings set with ALTER SYSTEM
	pgPin  string            // CPUAffinity of the lab's drop-in on the PostgreSQL unit ([partition] postgresql)
	dropIn map[string]string // [Service] settings of the lab's drop-in on the target unit
	env    []string          // the target unit's extra environment, KEY=VALUE sorted by key
	argv   []string          // the target unit's ExecStart (nil: a unit the lab did not create)
	// unsandboxed: the target unit runs without its Sandbox (a variant's
	// sandbox = false); the original is sandboxed.
	unsandboxed bool
	// unknown: a target restart failed, so what runs is unknown; the
	// next plan restarts it whatever else it does.
	unknown bool
	// pgUnknown: a PostgreSQL restart failed; the next plan restarts it.
	pgUnknown bool
}

// pgApplied is the PostgreSQL settings a variant set.
type pgApplied struct {
	set    map[string]string // name -> value (empty: none, the original)
	before map[string]string // name -> value before the lab set it, for the report
	// broken: setting or resetting them failed part way, so what is set is
	// what the journal holds; it differs from every wanted value.
	broken bool
}

// same reports whether a and b are known to set the same settings.
func (a pgApplied) same(b pgApplied) bool {
	return !a.broken && !b.broken && maps.Equal(a.set, b.set)
}

// dirty reports whether settings may be set that need resetting.
func (a pgApplied) dirty() bool { return a.broken || len(a.set) > 0 }

// original is what runs before any variant: the config as found and the
// unit as the lab created it.
func (l *Server) originalApplied() applied {
	a := applied{config: l.original}
	if l.cfg.TargetSpec != nil {
		a.argv = slices.Clone(l.cfg.TargetSpec.ExecStart)
	}
	return a
}
