package stack

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/pgrst-lab/pgrst-lab/internal/pgbin"
	"github.com/pgrst-lab/pgrst-lab/systemd"
)

// undo collects what an Up call started, to take it back when a later step fails.
type undo []func(ctx context.Context)

func (u undo) run(ctx context.Context) {
	ctx = context.WithoutCancel(ctx)
	for i := len(u) - 1; i >= 0; i-- {
		u[i](ctx)
	}
}

// Up brings the stack in o.Dir up, reusing the services that already run,
// and waits until PostgreSQL answers and the target is ready. When a step
// fails, whatever this call started is stopped and removed again.
func Up(ctx context.Context, o Options) (st *Stack, err error) {
	dir, err := AbsDir(o.Dir)
	if err != nil {
		return nil, err
	}
	choice, err := o.supervisor()
	if err != nil {
		return nil, err
	}
	if err := checkDir(dir); err != nil {
		return nil, err
	}
	var rollback undo
	var ctrl systemd.Controller
	defer func() {
		if err != nil {
			rollback.run(ctx)
			if ctrl != nil {
				_ = ctrl.Close()
			}
		}
	}()
	if _, serr := os.Stat(dir); os.IsNotExist(serr) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("create state dir: %w (choose another --dir)", err)
		}
		rollback = append(rollback, func(context.Context) { _ = os.RemoveAll(dir) })
	}
	f, existed, err := readFacts(dir)
	if err != nil {
		return nil, err
	}
	if existed {
		if err := secureLogDir(f.logDir()); err != nil {
			return nil, err
		}
		old := f.clone()
		rollback = append(rollback, func(context.Context) { _ = writeFacts(old) })
	} else {
		f = Facts{Dir: dir}
		rollback = append(rollback, func(context.Context) { _ = os.Remove(filepath.Join(dir, FactsFile)) })
	}
	if o.PGBinDir != "" || f.PGBinDir == "" {
		f.PGBinDir = o.PGBinDir
	}
	if f.PGBinDir, err = pgbin.Find(f.PGBinDir); err != nil {
		return nil, err
	}
	u, err := lookupPGUser()
	if err != nil {
		return nil, err
	}

	if ctrl, err = upController(ctx, &f, choice, o); err != nil {
		return nil, err
	}
	s := &Stack{facts: f, ctrl: ctrl}
	if err := s.upPostgres(ctx, o, u, &rollback); err != nil {
		return nil, err
	}
	if err := s.upTarget(ctx, o, &rollback); err != nil {
		return nil, err
	}
	if err := writeFacts(s.facts); err != nil {
		return nil, err
	}
	return s, nil
}

// upController connects to the supervisor the stack already runs under, or
// to the one chosen for a new stack.
func upController(ctx context.Context, f *Facts, choice systemd.Mode, o Options) (systemd.Controller, error) {
	running := f.Supervisor != "" && len(f.Installed) > 0
	if running {
		if choice != systemd.ModeAuto && choice != choiceOf(f.Supervisor) {
			return nil, fmt.Errorf("the stack in %s runs under %s, not %s: run `lab stack down` first to switch", f.Dir, f.Supervisor, choice)
		}
		return reconnect(ctx, *f)
	}
	ctrl, err := connect(ctx, f.Dir, choice, func(format string, args ...any) { o.progress(format, args...) })
	if err != nil {
		return nil, err
	}
	f.Supervisor = ctrl.Kind()
	return ctrl, nil
}

// active reports whether the unit is installed and running.
func (s *Stack) active(ctx context.Context, unit string) (systemd.Props, bool, error) {
	if !s.facts.installed(unit) {
		return systemd.Props{}, false, nil
	}
	p, err := s.ctrl.Properties(ctx, unit)
	if err != nil {
		return p, false, fmt.Errorf("status of %s: %w", unit, err)
	}
	return p, p.LoadState != "not-found" && (p.ActiveState == "active" || p.ActiveState == "activating"), nil
}

// claim refuses a unit name that exists but is not recorded as ours.
func (s *Stack) claim(ctx context.Context, name string) error {
	if s.facts.installed(name) {
		return nil
	}
	p, err := s.ctrl.Properties(ctx, name)
	if err != nil {
		return fmt.Errorf("status of %s: %w", name, err)
	}
	if p.LoadState != "" && p.LoadState != "not-found" {
		return fmt.Errorf("unit %s exists but %s does not record it: it was not made by this stack, so the lab leaves it alone (remove it yourself, or choose another --dir)", name, filepath.Join(s.facts.Dir, FactsFile))
	}
	return nil
}

// startUnit installs and starts spec, recording it in stack.json first (so
// even a crash leaves Down a record) and how to take it back.
func (s *Stack) startUnit(ctx context.Context, spec systemd.UnitSpec, rollback *undo) error {
	s.facts.setInstalled(spec.Name, true)
	if err := writeFacts(s.facts); err != nil {
		return err
	}
	*rollback = append(*rollback, func(ctx context.Context) {
		_ = s.ctrl.Uninstall(ctx, spec.Name)
		s.facts.setInstalled(spec.Name, false)
	})
	if err := s.ctrl.Install(ctx, spec); err != nil {
		return fmt.Errorf("install %s: %w", spec.Name, err)
	}
	if err := s.ctrl.Start(ctx, spec.Name); err != nil {
		return fmt.Errorf("start %s: %w", spec.Name, err)
	}
	return nil
}

func (s *Stack) upPostgres(ctx context.Context, o Options, u pgUser, rollback *undo) error {
	f := &s.facts
	p, running, err := s.active(ctx, f.PGUnit)
	if err != nil {
		return err
	}
	if running {
		if o.PGPort != 0 && o.PGPort != f.PGPort {
			return fmt.Errorf("PostgreSQL of this stack already listens on port %d: run `lab stack down` first to change --pg-port", f.PGPort)
		}
		o.progress("PostgreSQL already running (%s, pid %d, port %d)", f.PGUnit, p.MainPID, f.PGPort)
		return waitPG(ctx, s.ctrl, *f)
	}
	name := pgUnitName(f.Dir)
	if err := s.claim(ctx, name); err != nil {
		return err
	}
	if f.PGPort, err = pickPort(o.PGPort, f.PGPort, "--pg-port"); err != nil {
		return err
	}
	if err := initCluster(ctx, *f, u, o.progress); err != nil {
		return err
	}
	if err := secureLogDir(f.logDir()); err != nil {
		return err
	}
	f.PGUnit = name
	start := time.Now()
	o.progress("starting PostgreSQL (%s, port %d, socket %s)", name, f.PGPort, f.socketDir())
	err = s.startRetrying(ctx, o.PGPort == 0, "postgres.log", rollback, o.progress,
		func() error {
			if err := s.startUnit(ctx, pgSpec(*f, u), rollback); err != nil {
				return err
			}
			return waitPG(ctx, s.ctrl, *f)
		},
		func() error {
			if f.PGPort, err = freePort(); err != nil {
				return err
			}
			return writeLabConf(*f, u)
		})
	if err != nil {
		return err
	}
	o.progress("PostgreSQL ready in %v", time.Since(start).Round(time.Millisecond))
	return bootstrap(ctx, *f)
}

func (s *Stack) upTarget(ctx context.Context, o Options, rollback *undo) error {
	f := &s.facts
	p, running, err := s.active(ctx, f.TargetUnit)
	if err != nil {
		return err
	}
	if running && f.TargetUser == "" {
		// A stack from before targets had their own user: its target may
		// run as root. Start it afresh.
		o.progress("restarting the target of an older stack as an unprivileged user")
		if err := s.ctrl.Stop(ctx, f.TargetUnit); err != nil {
			return fmt.Errorf("stop %s: %w", f.TargetUnit, err)
		}
		running = false
	}
	if running {
		if o.Postgrest != "" && o.Postgrest != f.Binary {
			return fmt.Errorf("the target already runs %s: run `lab stack down` first to switch to %s", f.Binary, o.Postgrest)
		}
		o.progress("target already running (%s, pid %d, %s)", f.TargetUnit, p.MainPID, f.url())
		return waitTarget(ctx, s.ctrl, *f)
	}
	choice, err := chooseTarget(ctx, o, f.Dir, o.progress)
	if err != nil {
		return err
	}
	if choice.binary == "" {
		f.TargetUnit, f.Binary, f.Reference, f.NoTarget = "", "", false, choice.none
		o.progress("%s; PostgreSQL only", choice.none)
		return nil
	}
	name := targetUnitName(f.Dir)
	if err := s.claim(ctx, name); err != nil {
		return err
	}
	if f.Port, err = pickPort(o.Port, f.Port, "--port"); err != nil {
		return err
	}
	if f.AdminPort, err = pickPort(o.AdminPort, f.AdminPort, "--admin-port"); err != nil {
		return err
	}
	for f.AdminPort == f.Port {
		if o.AdminPort != 0 {
			return errors.New("--port and --admin-port must differ")
		}
		if f.AdminPort, err = freePort(); err != nil {
			return err
		}
	}
	f.Binary, f.Reference, f.NoTarget, f.TargetUnit = choice.binary, choice.reference, "", name
	acct, err := useTarget(ctx, f, o)
	if err != nil {
		return err
	}
	if err := writeTargetConfig(*f); err != nil {
		return err
	}
	if err := writeFacts(*f); err != nil {
		return err
	}
	start := time.Now()
	o.progress("starting target %s (%s, %s, as %s)", f.Binary, name, f.url(), acct.Name)
	err = s.startRetrying(ctx, o.Port == 0 && o.AdminPort == 0, "target.log", rollback, o.progress,
		func() error {
			if err := s.startUnit(ctx, targetSpec(*f), rollback); err != nil {
				return err
			}
			return waitTarget(ctx, s.ctrl, *f)
		},
		func() error {
			if f.Port, err = freePort(); err != nil {
				return err
			}
			if f.AdminPort, err = freePort(); err != nil || f.AdminPort == f.Port {
				return errors.Join(err, errors.New("no two free ports"))
			}
			return writeTargetConfig(*f)
		})
	if err != nil {
		return err
	}
	o.progress("target ready in %v", time.Since(start).Round(time.Millisecond))
	return nil
}
