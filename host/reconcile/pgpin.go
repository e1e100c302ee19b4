package reconcile

import (
	"context"
	"fmt"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// pin gives the PostgreSQL unit the wanted CPUAffinity ([partition]
// postgresql) as a lab drop-in, or removes it, when the plan says so;
// PostgreSQL restarts for it (plan.pgRestart). Every variant of a run
// carries the same list, so a run restarts PostgreSQL for it once, at its
// first variant; Restore removes the drop-in (and Recover one a killed
// run left).
func (e *executor) pin(ctx context.Context) error {
	if !e.p.pin {
		return nil
	}
	l, to := e.l, e.in.want.pgPin // wanted refused a pin without a PostgreSQL unit
	change := lab.Change{Where: "postgresql-unit", Key: "CPUAffinity", From: e.cur.pgPin, To: to}
	if to == "" {
		if err := l.cfg.Ctl.RemoveDropIn(ctx, l.cfg.PGUnit, dropIn); err != nil {
			return fmt.Errorf("unpin PostgreSQL: %w", err)
		}
	} else if err := l.cfg.Ctl.SetDropIn(ctx, l.cfg.PGUnit, dropIn, l.withCpuset(ctx, l.cfg.PGUnit, map[string]string{"CPUAffinity": to})); err != nil {
		return fmt.Errorf("pin PostgreSQL to CPUs %s: %w", to, err)
	}
	e.cur.pgPin = to
	e.changes = append(e.changes, change)
	return nil
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
