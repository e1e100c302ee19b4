package host

import (
	"context"
	"errors"
	"fmt"

	"github.com/pgrst-lab/pgrst-lab/configs"
	"github.com/pgrst-lab/pgrst-lab/lab"
)

// Restore implements lab.Server: the original config, PostgreSQL settings,
// unit and drop-ins are put back and the target restarted and gated.
func (l *Server) Restore(ctx context.Context) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	err := l.restore(ctx, true)
	if _, rerr := l.restartTarget(ctx); rerr != nil {
		l.restartNeeded = true
		err = errors.Join(err, fmt.Errorf("restart after restore: %w", rerr))
	} else {
		l.running, l.restartNeeded = l.original, false
	}
	return err
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
	if err := l.restore(ctx, false); err != nil {
		return err
	}
	if _, err := l.restartTarget(ctx); err != nil {
		return fmt.Errorf("restart %s after restoring: %w", l.cfg.TargetUnit, err)
	}
	return nil
}

// restore puts back PostgreSQL settings (through a connection, so the
// server re-reads them; when PostgreSQL does not answer, from the
// journal's copy of postgresql.auto.conf, then restarting it), then every
// journaled file, then the unit.
func (l *Server) restore(ctx context.Context, dropins bool) error {
	var errs []error
	pgRestart := false
	if l.hasPGEntries() {
		conn, err := l.connect(ctx)
		if err == nil {
			pgRestart, err = configs.RestorePGSettings(ctx, conn, l.journal)
			conn.Close(ctx)
			if err != nil {
				errs = append(errs, fmt.Errorf("restore PostgreSQL settings: %w", err))
			}
		} else {
			// A variant may keep PostgreSQL from starting (shared_buffers
			// = 200GB): no ALTER SYSTEM then, but the original bytes.
			l.cfg.Logf("PostgreSQL does not answer (%v); restoring postgresql.auto.conf from the journal's copy", err)
			if _, err := configs.RestorePGSettingsOffline(l.journal); err != nil {
				errs = append(errs, fmt.Errorf("restore PostgreSQL settings offline: %w", err))
			} else {
				pgRestart = true
			}
		}
	}
	l.pgDirty = false
	if _, err := l.journal.Restore(); err != nil {
		errs = append(errs, fmt.Errorf("restore config files: %w", err))
	}
	if _, unpinned, err := l.pinPG(ctx, lab.Variant{}); err != nil {
		errs = append(errs, err)
	} else if unpinned {
		pgRestart = true
	}
	if dropins && (l.dropinSet || l.envSet) {
		if err := l.cfg.Ctl.RemoveDropIn(ctx, l.cfg.TargetUnit, dropIn); err != nil {
			errs = append(errs, err)
		}
		l.dropinSet, l.envSet = false, false
	}
	if l.cfg.TargetSpec != nil && (l.specDirty || !dropins) {
		if err := l.cfg.Ctl.Install(ctx, *l.cfg.TargetSpec); err != nil {
			errs = append(errs, fmt.Errorf("reinstall %s: %w", l.cfg.TargetUnit, err))
		}
		l.specDirty = false
	}
	if pgRestart {
		if err := l.restartPG(ctx); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
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
