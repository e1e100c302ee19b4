package reconcile

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// executor performs a plan against the Controller, PostgreSQL and the
// journal, step by step in the plan's order, and updates cur for each
// step that succeeded (so the next plan repeats what failed).
type executor struct {
	l   *Server
	p   plan
	in  intent
	cur *applied
	// restore: towards the original. The journal restores the config,
	// PostgreSQL settings are restored offline when it does not answer,
	// and a failed step does not stop the ones after it.
	restore bool
	pgNeed  bool         // a PostgreSQL setting set or reset needs a restart
	changes []lab.Change // what the report lists, so far
}

// run takes every step but the target's.
func (e *executor) run(ctx context.Context) error {
	var errs []error
	for _, step := range []func(context.Context) error{e.config, e.pin, e.pgSettings, e.restartPG, e.unitDropIn, e.unitEnv, e.unitArgv} {
		if err := step(ctx); err != nil {
			if !e.restore {
				return err
			}
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// config writes the wanted PostgREST config through the journal (on every
// Apply: the file may differ from what runs), or restores the journaled
// files.
func (e *executor) config(context.Context) error {
	if e.restore {
		if _, err := e.l.journal.Restore(); err != nil {
			return fmt.Errorf("restore config files: %w", err)
		}
		return nil
	}
	if err := e.l.journal.WriteFile(e.l.cfg.Config, e.in.want.config); err != nil {
		return err
	}
	e.changes = append(e.changes, e.in.config...)
	return nil
}

// activate makes the target run the wanted config: a config reload when
// the plan says so, else a restart; both gated on readiness. It returns a
// note for the variant's changes when it reloaded. A failed restart leaves
// what runs unknown, so the next plan restarts.
func (e *executor) activate(ctx context.Context) (time.Duration, []lab.Change, error) {
	if keys := e.p.reload; keys != nil {
		took, err := e.l.reloadTarget(ctx)
		if err != nil {
			return 0, nil, err
		}
		e.cur.config = e.in.want.config
		return took, []lab.Change{{Where: "note", Key: "applied by", To: "config reload (SIGUSR2), no restart: " + strings.Join(keys, ", ") + " reloadable"}}, nil
	}
	took, err := e.l.restartTarget(ctx)
	if err != nil {
		e.cur.unknown = true
		return 0, nil, err
	}
	e.cur.config, e.cur.unknown = e.in.want.config, false
	return took, nil, nil
}
