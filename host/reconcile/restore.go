package reconcile

import (
	"context"
	"errors"
	"fmt"

	"github.com/pgrst-lab/pgrst-lab/configs"
)

// Restore implements lab.Server: the reconcile towards the original (no
// variant, unpinned) plus the journal's restore of the config, then the
// target restarted and gated. Its error is cleaned of the secrets it knows
// (Secrets).
func (l *Server) Restore(ctx context.Context) (err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	defer l.redact(&err)
	e := l.towardsOriginal(&l.cur)
	err = e.run(ctx)
	if _, _, rerr := e.activate(ctx); rerr != nil {
		err = errors.Join(err, fmt.Errorf("restart after restore: %w", rerr))
	}
	return err
}

// towardsOriginal is the executor that puts back the original from cur.
// PostgreSQL settings count as set when the journal holds any, whatever
// cur says: the journal is what is restored. It always restarts the
// target.
func (l *Server) towardsOriginal(cur *applied) *executor {
	cur.pg = pgApplied{broken: l.hasPGEntries()}
	in := intent{want: l.originalApplied()}
	p := planFor(*cur, in.want, l.reloadRules())
	p.reload = nil
	return &executor{l: l, p: p, in: in, cur: cur, restore: true}
}

// Recover restores what a killed run left behind: a pending journal,
// lab drop-ins (on the PostgREST and PostgreSQL units), a swapped binary.
// It says what it did. The target is
// restarted only when something was restored.
func (l *Server) Recover(ctx context.Context) error {
	pending := l.journal.Pending()
	if len(pending) > 0 {
		l.cfg.Logf("found changes left by an interrupted run; restoring them:")
		for _, e := range pending {
			l.cfg.Logf("  %s", e)
		}
	}
	removed, err := l.removeLeftoverDropIns(ctx, l.cfg.TargetUnit)
	if err != nil {
		return err
	}
	if err := l.unpinPGLeftover(ctx); err != nil {
		return err
	}
	if len(pending) == 0 && len(removed) == 0 {
		return nil
	}
	// What a killed run left is unknown but for its drop-ins, just
	// removed: a unit the lab created is reinstalled whatever its command
	// line (no argv differs from the spec's).
	var left applied
	if err := l.towardsOriginal(&left).run(ctx); err != nil {
		return err
	}
	if _, err := l.restartTarget(ctx); err != nil {
		return fmt.Errorf("restart %s after restoring: %w", l.cfg.TargetUnit, err)
	}
	return nil
}

func (l *Server) hasPGEntries() bool {
	for _, e := range l.journal.Pending() {
		if e.Kind == configs.EntryPG {
			return true
		}
	}
	return false
}

// removeLeftoverDropIns removes the lab drop-ins a killed run left on unit
// and says which.
func (l *Server) removeLeftoverDropIns(ctx context.Context, unit string) ([]string, error) {
	removed, err := l.cfg.Ctl.RemoveLabDropIns(ctx, unit)
	if err != nil {
		return nil, fmt.Errorf("remove lab drop-ins of %s: %w", unit, err)
	}
	for _, r := range removed {
		l.cfg.Logf("removed drop-in %s left by an interrupted run", r)
	}
	return removed, nil
}
