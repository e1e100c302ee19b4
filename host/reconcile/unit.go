package reconcile

import (
	"context"
	"fmt"
	"slices"

	"github.com/pgrst-lab/pgrst-lab/internal/safefile"
)

// dropIn is the name of the drop-in that carries a variant's unit settings.
const dropIn = "50-lab-variant"

// unitDropIn writes or removes the lab's drop-in on the target unit. Removing
// it removes the unit's extra environment too.
func (e *executor) unitDropIn(ctx context.Context) error {
	l := e.l
	switch e.p.dropIn {
	case setDropIn:
		if err := l.cfg.Ctl.SetDropIn(ctx, l.cfg.TargetUnit, dropIn, l.withCpuset(ctx, l.cfg.TargetUnit, e.in.want.dropIn)); err != nil {
			return err
		}
		e.cur.dropIn = e.in.want.dropIn
	case removeDropIn:
		if err := l.cfg.Ctl.RemoveDropIn(ctx, l.cfg.TargetUnit, dropIn); err != nil {
			return err
		}
		e.cur.dropIn, e.cur.env = nil, nil
	}
	return nil
}

// unitEnv sets the target unit's extra environment. It goes to the controller
// as a list of assignments, never joined into a line that is parsed again.
func (e *executor) unitEnv(ctx context.Context) error {
	if !e.p.env {
		return nil
	}
	if err := e.l.cfg.Ctl.SetEnvironment(ctx, e.l.cfg.TargetUnit, dropIn, e.in.want.env); err != nil {
		return err
	}
	e.cur.env = e.in.want.env
	return nil
}

// unitArgv reinstalls the target unit (one the lab created) with the
// wanted command line: another binary, arguments, GHC statistics options.
func (e *executor) unitArgv(ctx context.Context) error {
	if !e.p.install {
		return nil
	}
	spec := *e.l.cfg.TargetSpec
	spec.ExecStart = e.in.want.argv
	if e.in.want.unsandboxed {
		spec.Sandbox = nil
	}
	if f := e.l.ghcStatsFile(); f != "" && slices.Contains(spec.ExecStart, "-S"+f) {
		// The target opens it by name: a plain file of the lab's, not
		// whatever may have been left there.
		uid, gid, err := e.l.ghcStatsOwner()
		if err != nil {
			return fmt.Errorf("profile: %w", err)
		}
		if err := safefile.PrepareFor(f, 0o600, uid, gid); err != nil {
			return fmt.Errorf("profile: %w", err)
		}
	}
	if err := e.l.cfg.Ctl.Install(ctx, spec); err != nil {
		if e.restore {
			return fmt.Errorf("reinstall %s: %w", e.l.cfg.TargetUnit, err)
		}
		return err
	}
	e.cur.argv, e.cur.unsandboxed = e.in.want.argv, e.in.want.unsandboxed
	return nil
}
