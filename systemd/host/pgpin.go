package host

import (
	"context"
	"fmt"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/capability"
)

// pinPG gives the PostgreSQL unit the variant's CPUAffinity ([partition]
// postgresql) as a lab drop-in, or removes it, when that differs from
// what the unit has; it says whether PostgreSQL must restart for it. Every
// variant of a run carries the same list, so a run restarts PostgreSQL for
// it once, at its first variant; Restore removes the drop-in (and
// Recover one a killed run left).
func (l *Server) pinPG(ctx context.Context, v lab.Variant) ([]lab.Change, bool, error) {
	if v.PGCPUAffinity == l.pgPinned {
		return nil, false, nil
	}
	if l.cfg.PGUnit == "" {
		return nil, false, fmt.Errorf("partition.postgresql: no PostgreSQL unit is known to pin (set target.pg_unit)")
	}
	change := lab.Change{Where: "postgresql-unit", Key: "CPUAffinity", From: l.pgPinned, To: v.PGCPUAffinity}
	if v.PGCPUAffinity == "" {
		if err := l.cfg.Ctl.RemoveDropIn(ctx, l.cfg.PGUnit, dropIn); err != nil {
			return nil, false, fmt.Errorf("unpin PostgreSQL: %w", err)
		}
		l.pgPinned = ""
		return []lab.Change{change}, true, nil
	}
	if err := capability.PGCPUAffinity(v.PGCPUAffinity); err != nil { // second line behind lab validate and the agent
		return nil, false, err
	}
	if err := l.cfg.Ctl.SetDropIn(ctx, l.cfg.PGUnit, dropIn, map[string]string{"CPUAffinity": v.PGCPUAffinity}); err != nil {
		return nil, false, fmt.Errorf("pin PostgreSQL to CPUs %s: %w", v.PGCPUAffinity, err)
	}
	l.pgPinned = v.PGCPUAffinity
	return []lab.Change{change}, true, nil
}

// unpinPGLeftover removes lab drop-ins a killed run left on the PostgreSQL
// unit ([partition] postgresql) and restarts PostgreSQL without them.
func (l *Server) unpinPGLeftover(ctx context.Context) error {
	if l.cfg.PGUnit == "" {
		return nil
	}
	removed, err := l.removeLeftoverDropIns(ctx, l.cfg.PGUnit)
	if err != nil || len(removed) == 0 {
		return err
	}
	if err := l.restartPG(ctx); err != nil {
		return fmt.Errorf("restart %s after removing its lab drop-ins: %w", l.cfg.PGUnit, err)
	}
	return nil
}
