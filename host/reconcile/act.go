package reconcile

import (
	"context"
	"fmt"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// Act implements lab.Actor: an experiment's action during a trial, on the
// database of the superuser connection (the one PostgREST serves on the
// local stack and with target.pg_uri).
func (l *Server) Act(ctx context.Context, a lab.Action) error {
	switch a.Do {
	case lab.ActionRestart:
		// restartTarget tells the watcher, so the restart is no crash.
		_, err := l.restartTarget(ctx)
		if err != nil {
			return fmt.Errorf("action restart of %s: %w", l.cfg.TargetUnit, err)
		}
		return nil
	case lab.ActionNotify, lab.ActionSQL:
	default:
		return fmt.Errorf("action %q: unknown (allowed: %s, %s, %s)", a.Do, lab.ActionNotify, lab.ActionRestart, lab.ActionSQL)
	}
	conn, err := l.connect(ctx)
	if err != nil {
		return fmt.Errorf("action %s: %w", a.Do, err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if a.Do == lab.ActionNotify {
		if _, err := conn.Exec(ctx, "NOTIFY pgrst, 'reload schema'"); err != nil {
			return fmt.Errorf("action notify: %w", err)
		}
		return nil
	}
	tx, err := conn.Begin(ctx)
	if err != nil {
		return fmt.Errorf("action sql: begin: %w", err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck // a no-op after Commit
	if _, err := tx.Exec(ctx, a.SQL); err != nil {
		return fmt.Errorf("action sql %q: %w", a.Label(), err)
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(a.Hold):
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("action sql: commit after %s: %w", a.Hold, err)
	}
	return nil
}
