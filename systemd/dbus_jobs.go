package systemd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	sd "github.com/coreos/go-systemd/v22/dbus"
)

// Install writes the unit file and reloads the manager; the unit must then
// load without errors.
func (d *DBus) Install(ctx context.Context, spec UnitSpec) error {
	text, err := RenderUnit(spec)
	if err != nil {
		return err
	}
	ctx, cancel := d.callCtx(ctx, 0)
	defer cancel()
	if err := os.MkdirAll(d.unitDir, 0o755); err != nil {
		return fmt.Errorf("install %s: %w", spec.Name, err)
	}
	if err := writeFileAtomic(d.unitPath(spec.Name), []byte(text)); err != nil {
		return fmt.Errorf("install %s: %w", spec.Name, err)
	}
	if spec.LogFile != "" { // systemd appends to it as it is: make it private first
		f, err := OpenPrivateLog(spec.LogFile)
		if err != nil {
			return fmt.Errorf("install %s: log file: %w", spec.Name, err)
		}
		f.Close()
	}
	d.mu.Lock()
	d.specs[spec.Name] = spec.EffectiveStopTimeout()
	d.mu.Unlock()
	if err := d.daemonReload(ctx); err != nil {
		return fmt.Errorf("install %s: %w", spec.Name, err)
	}
	return d.checkLoaded(ctx, "install", spec.Name)
}

func (d *DBus) checkLoaded(ctx context.Context, op, name string) error {
	all, err := d.conn.GetUnitPropertiesContext(ctx, name)
	if err != nil {
		return fmt.Errorf("%s %s: read LoadState: %w", op, name, err)
	}
	if ls, _ := all["LoadState"].(string); ls != "loaded" {
		return fmt.Errorf("%s %s: unit does not load: LoadState=%s %v (check %s and its drop-ins)",
			op, name, ls, all["LoadError"], d.unitPath(name))
	}
	return nil
}

func (d *DBus) daemonReload(ctx context.Context) error {
	if err := d.conn.ReloadContext(ctx); err != nil {
		return fmt.Errorf("daemon-reload of the %s manager: %w", scope(d.system), err)
	}
	return nil
}

// Uninstall stops the unit and removes its file and drop-ins.
func (d *DBus) Uninstall(ctx context.Context, name string) error {
	if err := ValidateUnitName(name); err != nil {
		return err
	}
	ctx, cancel := d.callCtx(ctx, d.stopTimeout(ctx, name))
	defer cancel()
	var errs []error
	if p, err := d.Properties(ctx, name); err == nil && p.ActiveState != "inactive" && p.ActiveState != "failed" {
		if err := d.Stop(ctx, name); err != nil {
			errs = append(errs, err)
		}
	}
	for _, p := range []string{d.unitPath(name), d.unitPath(name) + ".d"} {
		if err := os.RemoveAll(p); err != nil {
			errs = append(errs, fmt.Errorf("uninstall %s: %w", name, err))
		}
	}
	if err := d.daemonReload(ctx); err != nil {
		errs = append(errs, fmt.Errorf("uninstall %s: %w", name, err))
	}
	_ = d.conn.ResetFailedUnitContext(ctx, name) // fails when the unit is already gone
	d.mu.Lock()
	delete(d.specs, name)
	d.mu.Unlock()
	return errors.Join(errs...)
}

type jobFunc func(ctx context.Context, name, mode string, ch chan<- string) (int, error)

// job runs a start/stop/restart/reload job and waits for its result.
func (d *DBus) job(ctx context.Context, op, name string, extra time.Duration, fn jobFunc) error {
	if err := ValidateUnitName(name); err != nil {
		return err
	}
	ctx, cancel := d.callCtx(ctx, extra)
	defer cancel()
	if op != "stop" && op != "reload" {
		// A failed unit (or one that hit the start limit) must be reset before reuse.
		_ = d.conn.ResetFailedUnitContext(ctx, name)
	}
	ch := make(chan string, 1)
	if _, err := fn(ctx, name, "replace", ch); err != nil {
		return fmt.Errorf("%s %s: %w", op, name, err)
	}
	select {
	case res := <-ch:
		if res != "done" {
			return unitError(d, name, op, "job "+res, nil)
		}
		return nil
	case <-ctx.Done():
		return unitError(d, name, op, "no job result", ctx.Err())
	}
}

func (d *DBus) Start(ctx context.Context, name string) error {
	return d.job(ctx, "start", name, 0, d.conn.StartUnitContext)
}

func (d *DBus) Stop(ctx context.Context, name string) error {
	return d.job(ctx, "stop", name, d.stopTimeout(ctx, name), d.conn.StopUnitContext)
}

func (d *DBus) Restart(ctx context.Context, name string) error {
	return d.job(ctx, "restart", name, d.stopTimeout(ctx, name), d.conn.RestartUnitContext)
}

func (d *DBus) Reload(ctx context.Context, name string) error {
	return d.job(ctx, "reload", name, 0, d.conn.ReloadUnitContext)
}

// Signal sends sig to the unit's main process.
func (d *DBus) Signal(ctx context.Context, name string, sig os.Signal) error {
	s, err := ToSyscallSignal(sig)
	if err != nil {
		return fmt.Errorf("signal %s: %w", name, err)
	}
	ctx, cancel := d.callCtx(ctx, 0)
	defer cancel()
	if err := d.conn.KillUnitWithTarget(ctx, name, sd.Main, int32(s)); err != nil {
		return fmt.Errorf("signal %s with %s: %w", name, SignalName(s), err)
	}
	return nil
}
