package direct

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"syscall"
	"time"

	"github.com/pgrst-lab/pgrst-lab/internal/runas"
	"github.com/pgrst-lab/pgrst-lab/systemd"
)

func (d *Supervisor) Start(ctx context.Context, name string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("start %s: %w", name, err)
	}
	unlock := d.lockUnit(name)
	defer unlock()
	st, err := d.load(name)
	if err != nil {
		return fmt.Errorf("start %w", err)
	}
	if st.alive() {
		return nil
	}
	return d.spawn(st, "start")
}

// spawn starts st's process and a goroutine that records its exit. d.mu is held.
func (d *Supervisor) spawn(st *directState, op string) error {
	name := st.Spec.Name
	logf, err := systemd.OpenPrivateLog(st.logFile(d))
	if err != nil {
		return fmt.Errorf("%s %s: log file: %w", op, name, err)
	}
	defer logf.Close() // the child has its own copy
	cmd, err := d.command(st, logf)
	var cgs *cgroupStart
	if err == nil {
		cgs, err = d.prepareCgroup(st, cmd)
	}
	if err == nil {
		if st.Spec.Sandbox != nil {
			err = runas.StartConfined(cmd) // no_new_privs, no bounding set: as systemd's NoNewPrivileges= and CapabilityBoundingSet=
		} else {
			err = cmd.Start()
		}
		if err != nil {
			cgs.abandon(nil)
		}
	}
	if err == nil && cgs != nil {
		if err = cgs.enter(cmd.Process.Pid); err != nil {
			cgs.abandon(cmd.Wait)
		}
	}
	if err != nil {
		// As systemd reports a failed exec: Result=exit-code, status 203 (EXIT_EXEC).
		fmt.Fprintf(logf, "pgrst-lab: %s: failed to start %s: %v\n", name, st.Spec.ExecStart[0], err)
		st.PID, st.StartTime = 0, 0
		st.ActiveState, st.SubState, st.Result = "failed", "failed", "exit-code"
		st.ExecMainCode, st.ExecMainStatus = 1, 203
		if serr := d.save(st); serr != nil {
			err = errors.Join(err, serr)
		}
		return d.unitErrorLocked(st, op, "process not started", err)
	}
	pid := cmd.Process.Pid
	ps, _ := readProcStat(pid)
	st.PID, st.StartTime = pid, ps.StartTime
	st.ActiveState, st.SubState, st.Result = "active", "running", "success"
	st.ExecMainCode, st.ExecMainStatus = 0, 0
	if cgs != nil {
		st.Cgroup = cgs.cg
	}
	c := &child{pid: pid, done: make(chan struct{})}
	d.children[name] = c
	go d.reap(name, c, cmd)
	return d.save(st)
}

// unitErrorLocked builds a systemd.UnitError from st without calling back into d.
func (d *Supervisor) unitErrorLocked(st *directState, op, result string, err error) *systemd.UnitError {
	p := st.props(d)
	tail, terr := systemd.TailFile(st.logFile(d), systemd.LogTailLines)
	if terr != nil {
		tail = "(log unavailable: " + terr.Error() + ")"
	}
	return &systemd.UnitError{Unit: st.Spec.Name, Op: op, Result: result, Props: &p, LogTail: tail, Err: err}
}

// reap waits for a child, records how it ended and applies Restart=.
func (d *Supervisor) reap(name string, c *child, cmd *exec.Cmd) {
	_ = cmd.Wait()
	ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)

	unlock := d.lockUnit(name)
	defer unlock()
	defer close(c.done)
	if d.children[name] == c {
		delete(d.children, name)
	}
	st, err := d.load(name)
	if err != nil || st.PID != c.pid {
		return // uninstalled, or another process took over
	}
	st.PID, st.StartTime = 0, 0
	ooms := uint64(0)
	if st.Cgroup != nil {
		ooms = st.Cgroup.oomKills() // before the cgroup, and its counter, goes
		if err := st.Cgroup.remove(context.Background()); err == nil {
			st.Cgroup = nil
		}
	}
	switch {
	case ws.Signaled():
		st.ExecMainCode, st.ExecMainStatus = 2, int(ws.Signal())
		if ws.CoreDump() {
			st.ExecMainCode = 3
		}
	default:
		st.ExecMainCode, st.ExecMainStatus = 1, ws.ExitStatus()
	}
	if c.stopping || st.ActiveState == "deactivating" { // stopped by us or by another lab process
		st.ActiveState, st.SubState = "inactive", "dead"
		_ = d.save(st) // Stop sets Result
		return
	}
	switch {
	case ooms > 0: // as systemd: the kernel's OOM killer killed a process of the unit
		st.Result = "oom-kill"
	case ws.Signaled() && ws.CoreDump():
		st.Result = "core-dump"
	case ws.Signaled():
		st.Result = "signal"
	case ws.ExitStatus() != 0:
		st.Result = "exit-code"
	default:
		st.Result = "success"
	}
	st.ActiveState, st.SubState = "failed", "failed"
	if st.Result == "success" {
		st.ActiveState, st.SubState = "inactive", "dead"
	}
	if !d.closed && shouldRestart(st.Spec.Restart, st.Result, ws) {
		st.ActiveState, st.SubState = "activating", "auto-restart"
		time.AfterFunc(100*time.Millisecond, func() { d.autoRestart(name) })
	}
	_ = d.save(st)
}

func shouldRestart(policy, result string, ws syscall.WaitStatus) bool {
	clean := result == "success" ||
		ws.Signaled() && (ws.Signal() == syscall.SIGHUP || ws.Signal() == syscall.SIGINT ||
			ws.Signal() == syscall.SIGTERM || ws.Signal() == syscall.SIGPIPE)
	switch policy {
	case "always":
		return true
	case "on-success":
		return clean
	case "on-failure":
		return !clean
	case "on-abnormal":
		return ws.Signaled() && !clean
	case "on-abort":
		return ws.Signaled() && !clean && ws.Signal() != syscall.SIGKILL
	}
	return false
}

func (d *Supervisor) autoRestart(name string) {
	unlock := d.lockUnit(name)
	defer unlock()
	st, err := d.load(name)
	if err != nil || d.closed || st.SubState != "auto-restart" {
		return // stopped or uninstalled meanwhile
	}
	st.NRestarts++
	_ = d.spawn(st, "auto-restart")
}
