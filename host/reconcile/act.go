package reconcile

import (
	"context"
	"fmt"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// Act implements lab.Actor: an experiment's action during a trial, on the
// database of the superuser connection (the one PostgREST serves on the
// local stack and with target.pg_uri). The connection is made before at,
// so the action begins on time.
func (l *Server) Act(ctx context.Context, a lab.Action, at time.Time) (lab.Acted, error) {
	wait := func() bool {
		select {
		case <-ctx.Done():
			return false
		case <-time.After(time.Until(at)):
			return true
		}
	}
	switch a.Do {
	case lab.ActionRestart:
		if !wait() {
			return lab.Acted{}, nil
		}
		mark := l.logMark(ctx)
		began := time.Now()
		// restartTarget tells the watcher, so the restart is no crash; it
		// is not cancelled with ctx, so the target is not left half done.
		if _, err := l.restartTarget(context.WithoutCancel(ctx)); err != nil {
			return lab.Acted{Began: began}, fmt.Errorf("action restart of %s: %w", l.cfg.TargetUnit, err)
		}
		// Ready: the new process loaded its schema cache at its start.
		return lab.Acted{Began: began, Followed: after(began, l.schemaCacheLoads(ctx, -1, mark))}, nil
	case lab.ActionNotify, lab.ActionSQL:
	default:
		return lab.Acted{}, fmt.Errorf("action %q: unknown (allowed: %s, %s, %s)", a.Do, lab.ActionNotify, lab.ActionRestart, lab.ActionSQL)
	}
	conn, err := l.connect(ctx)
	if err != nil {
		return lab.Acted{}, fmt.Errorf("action %s: %w", a.Do, err)
	}
	bg := context.WithoutCancel(ctx)
	defer conn.Close(bg)
	loads, mark := l.schemaCacheLoadCount(ctx), l.logMark(ctx)
	if !wait() {
		return lab.Acted{}, nil
	}
	began := time.Now()
	if a.Do == lab.ActionNotify {
		if _, err := conn.Exec(bg, "NOTIFY pgrst, 'reload schema'"); err != nil {
			return lab.Acted{Began: began}, fmt.Errorf("action notify: %w", err)
		}
		return lab.Acted{Began: began, Followed: after(began, l.schemaCacheLoads(ctx, loads, mark))}, nil
	}
	tx, err := conn.Begin(bg)
	if err != nil {
		return lab.Acted{Began: began}, fmt.Errorf("action sql: begin: %w", err)
	}
	defer tx.Rollback(bg) //nolint:errcheck // a no-op after Commit
	if _, err := tx.Exec(bg, a.SQL); err != nil {
		return lab.Acted{Began: began}, fmt.Errorf("action %s: %w", a.Label(), err)
	}
	select {
	case <-ctx.Done(): // the load ended: let go at once
	case <-time.After(time.Until(began.Add(a.Hold))):
	}
	if err := tx.Commit(bg); err != nil {
		return lab.Acted{Began: began}, fmt.Errorf("action sql: commit after %s: %w", time.Since(began), err)
	}
	return lab.Acted{Began: began}, nil
}

// after places events no earlier than t: a load the action caused began
// after it (its start is estimated from when it was seen less the time
// PostgREST says it took, which counts more than the query).
func after(t time.Time, evs []lab.Event) []lab.Event {
	for i := range evs {
		if evs[i].T.Before(t) {
			evs[i].T = t
		}
	}
	return evs
}
