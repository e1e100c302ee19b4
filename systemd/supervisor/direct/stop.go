package direct

import (
	"context"
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/pgrst-lab/pgrst-lab/systemd"
)

func (d *Supervisor) Stop(ctx context.Context, name string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("stop %s: %w", name, err)
	}
	unlock := d.lockUnit(name)
	st, err := d.load(name)
	if err != nil {
		unlock()
		return fmt.Errorf("stop %w", err)
	}
	if !st.alive() {
		if st.ActiveState == "active" || st.ActiveState == "activating" {
			st.ActiveState, st.SubState = "inactive", "dead"
		}
		st.PID, st.StartTime = 0, 0
		err := d.dropCgroup(ctx, st)
		err = errors.Join(err, d.save(st))
		unlock()
		return err
	}
	pid, c := st.PID, d.children[name]
	if c != nil {
		c.stopping = true
	}
	st.ActiveState, st.SubState = "deactivating", "stop-sigterm"
	_ = d.save(st)
	unlock()

	sig := syscall.SIGTERM
	if st.Spec.KillSignal != "" {
		sig, _ = systemd.ParseSignal(st.Spec.KillSignal)
	}
	result := "success"
	_ = syscall.Kill(-pid, sig)
	if !d.waitExit(ctx, st, c, st.Spec.EffectiveStopTimeout()) {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("stop %s: gave up waiting for pid %d to exit, sent SIGKILL to its process group: %w", name, pid, err)
		}
		result = "timeout"
		if !d.waitExit(context.WithoutCancel(ctx), st, c, 5*time.Second) {
			return d.unitErrorLocked(st, "stop", fmt.Sprintf("pid %d survives SIGKILL", pid), nil)
		}
	}
	_ = syscall.Kill(-pid, syscall.SIGKILL) // leftovers in the group, as KillMode=control-group

	unlock = d.lockUnit(name)
	defer unlock()
	st, err = d.load(name)
	if err != nil {
		return fmt.Errorf("stop %w", err)
	}
	var cgErr error
	if st.PID == pid || st.PID == 0 {
		cgErr = d.dropCgroup(ctx, st)
		st.PID, st.StartTime = 0, 0
		st.ActiveState, st.SubState, st.Result = "inactive", "dead", result
		if result != "success" { // as systemd: a stop that needed SIGKILL leaves the unit failed
			st.ActiveState, st.SubState = "failed", "failed"
		}
	}
	return errors.Join(cgErr, d.save(st))
}

// dropCgroup removes the stopped unit's cgroup, and what is left in it.
func (d *Supervisor) dropCgroup(ctx context.Context, st *directState) error {
	if st.Cgroup == nil {
		return nil
	}
	if err := st.Cgroup.remove(context.WithoutCancel(ctx)); err != nil {
		return fmt.Errorf("stop %s: %w", st.Spec.Name, err)
	}
	st.Cgroup = nil
	return nil
}

// waitExit waits until the process is gone: through the reaper when this
// Direct started it, else by watching /proc.
func (d *Supervisor) waitExit(ctx context.Context, st *directState, c *child, timeout time.Duration) bool {
	t := time.NewTimer(timeout)
	defer t.Stop()
	if c != nil {
		select {
		case <-c.done:
			return true
		case <-t.C:
			return false
		case <-ctx.Done():
			return false
		}
	}
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for st.alive() {
		select {
		case <-tick.C:
		case <-t.C:
			return false
		case <-ctx.Done():
			return false
		}
	}
	return true
}

func (d *Supervisor) Restart(ctx context.Context, name string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("restart %s: %w", name, err)
	}
	if err := d.Stop(ctx, name); err != nil {
		return fmt.Errorf("restart: %w", err)
	}
	unlock := d.lockUnit(name)
	defer unlock()
	st, err := d.load(name)
	if err != nil {
		return fmt.Errorf("restart %w", err)
	}
	return d.spawn(st, "restart")
}

func (d *Supervisor) Reload(ctx context.Context, name string) error {
	st, err := d.loadLocked(name)
	if err != nil {
		return fmt.Errorf("reload %w", err)
	}
	if st.Spec.ReloadSignal == "" {
		return fmt.Errorf("reload %s: the unit has no ReloadSignal", name)
	}
	sig, err := systemd.ParseSignal(st.Spec.ReloadSignal)
	if err != nil {
		return fmt.Errorf("reload %s: %w", name, err)
	}
	return d.Signal(ctx, name, sig)
}

func (d *Supervisor) Signal(ctx context.Context, name string, sig os.Signal) error {
	s, err := systemd.ToSyscallSignal(sig)
	if err != nil {
		return fmt.Errorf("signal %s: %w", name, err)
	}
	st, err := d.loadLocked(name)
	if err != nil {
		return fmt.Errorf("signal %w", err)
	}
	if !st.alive() {
		return fmt.Errorf("signal %s with %s: the unit is not running", name, systemd.SignalName(s))
	}
	if err := syscall.Kill(st.PID, s); err != nil {
		return fmt.Errorf("signal %s (pid %d) with %s: %w", name, st.PID, systemd.SignalName(s), err)
	}
	return nil
}
