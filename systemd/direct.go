package systemd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"sync"
	"syscall"
	"time"
)

// Direct supervises services without systemd. Each service runs in its own
// session and process group (setsid), so it outlives the lab process; its
// spec, drop-ins and PID are kept as JSON in the state dir, so a later lab
// process can inspect, stop or restart it. Stop sends KillSignal (default
// SIGTERM) to the group and SIGKILL after StopTimeout. Output is appended to
// LogFile (default <state dir>/<unit>.log). Restart= is honoured only while
// the process that started the service is alive.
//
// One Direct per state dir at a time: several lab processes changing the
// same unit concurrently are not coordinated.
type Direct struct {
	dir string

	mu       sync.Mutex
	children map[string]*child // processes this Direct started, by unit
	closed   bool
}

// child is a process this Direct started and reaps.
type child struct {
	pid      int
	done     chan struct{} // closed once the exit is recorded
	stopping bool          // guarded by Direct.mu; set by Stop
}

var _ Controller = (*Direct)(nil)

// NewDirect returns a direct supervisor keeping its state in stateDir
// (created 0700 when missing).
func NewDirect(stateDir string) (*Direct, error) {
	if stateDir == "" {
		return nil, errors.New("systemd: direct supervisor: empty state dir")
	}
	if err := os.MkdirAll(stateDir, 0o700); err != nil {
		return nil, fmt.Errorf("systemd: direct supervisor state dir: %w", err)
	}
	return &Direct{dir: stateDir, children: map[string]*child{}}, nil
}

func (d *Direct) Kind() string { return ModeDirect }

func (d *Direct) Describe() string {
	return "direct process supervisor (no systemd; state in " + d.dir + ")"
}

// Close forgets the children; the services keep running.
func (d *Direct) Close() error {
	d.mu.Lock()
	d.closed = true
	d.mu.Unlock()
	return nil
}

// alive reports whether the recorded process still runs (not a zombie and
// not a new process that reuses the PID).
func (st *directState) alive() bool {
	if st.PID <= 0 {
		return false
	}
	ps, err := readProcStat(st.PID)
	return err == nil && ps.State != 'Z' && ps.State != 'X' && ps.StartTime == st.StartTime
}

func (d *Direct) Install(ctx context.Context, spec UnitSpec) error {
	if err := spec.Validate(); err != nil {
		return err
	}
	if err := checkDirectSettings(spec.Name, "Extra", spec.Extra); err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	st, err := d.load(spec.Name)
	if errors.Is(err, errNotInstalled) {
		st, err = &directState{ActiveState: "inactive", SubState: "dead", Result: "success"}, nil
	}
	if err != nil {
		return fmt.Errorf("install %w", err)
	}
	st.Spec = spec // a running service gets the new spec at its next start, as with systemd
	return d.save(st)
}

func (d *Direct) Uninstall(ctx context.Context, name string) error {
	_, err := d.loadLocked(name)
	if errors.Is(err, errNotInstalled) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("uninstall %w", err)
	}
	var errs []error
	if err := d.Stop(ctx, name); err != nil {
		errs = append(errs, err)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, p := range []string{d.statePath(name), d.defaultLog(name)} {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, fmt.Errorf("uninstall %s: %w", name, err))
		}
	}
	return errors.Join(errs...)
}

func (d *Direct) loadLocked(name string) (*directState, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.load(name)
}

func (d *Direct) Start(ctx context.Context, name string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("start %s: %w", name, err)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
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
func (d *Direct) spawn(st *directState, op string) error {
	name := st.Spec.Name
	logf, err := os.OpenFile(st.logFile(d), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("%s %s: log file: %w", op, name, err)
	}
	defer logf.Close() // the child has its own copy
	cmd, err := d.command(st, logf)
	if err == nil {
		err = cmd.Start()
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
	c := &child{pid: pid, done: make(chan struct{})}
	d.children[name] = c
	go d.reap(name, c, cmd)
	return d.save(st)
}

// unitErrorLocked builds a UnitError from st without calling back into d.
func (d *Direct) unitErrorLocked(st *directState, op, result string, err error) *UnitError {
	p := st.props(d)
	tail, terr := tailFile(st.logFile(d), LogTailLines)
	if terr != nil {
		tail = "(log unavailable: " + terr.Error() + ")"
	}
	return &UnitError{Unit: st.Spec.Name, Op: op, Result: result, Props: &p, LogTail: tail, Err: err}
}

// reap waits for a child, records how it ended and applies Restart=.
func (d *Direct) reap(name string, c *child, cmd *exec.Cmd) {
	_ = cmd.Wait()
	ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)

	d.mu.Lock()
	defer d.mu.Unlock()
	defer close(c.done)
	if d.children[name] == c {
		delete(d.children, name)
	}
	st, err := d.load(name)
	if err != nil || st.PID != c.pid {
		return // uninstalled, or another process took over
	}
	st.PID, st.StartTime = 0, 0
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

func (d *Direct) autoRestart(name string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	st, err := d.load(name)
	if err != nil || d.closed || st.SubState != "auto-restart" {
		return // stopped or uninstalled meanwhile
	}
	st.NRestarts++
	_ = d.spawn(st, "auto-restart")
}

func (d *Direct) Stop(ctx context.Context, name string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("stop %s: %w", name, err)
	}
	d.mu.Lock()
	st, err := d.load(name)
	if err != nil {
		d.mu.Unlock()
		return fmt.Errorf("stop %w", err)
	}
	if !st.alive() {
		if st.ActiveState == "active" || st.ActiveState == "activating" {
			st.ActiveState, st.SubState = "inactive", "dead"
		}
		st.PID, st.StartTime = 0, 0
		err := d.save(st)
		d.mu.Unlock()
		return err
	}
	pid, c := st.PID, d.children[name]
	if c != nil {
		c.stopping = true
	}
	st.ActiveState, st.SubState = "deactivating", "stop-sigterm"
	_ = d.save(st)
	d.mu.Unlock()

	sig := syscall.SIGTERM
	if st.Spec.KillSignal != "" {
		sig, _ = ParseSignal(st.Spec.KillSignal)
	}
	result := "success"
	_ = syscall.Kill(-pid, sig)
	if !d.waitExit(ctx, st, c, st.Spec.stopTimeout()) {
		result = "timeout"
		_ = syscall.Kill(-pid, syscall.SIGKILL)
		if !d.waitExit(ctx, st, c, 5*time.Second) {
			return d.unitErrorLocked(st, "stop", "process survives SIGKILL", ctx.Err())
		}
	}
	_ = syscall.Kill(-pid, syscall.SIGKILL) // leftovers in the group, as KillMode=control-group

	d.mu.Lock()
	defer d.mu.Unlock()
	st, err = d.load(name)
	if err != nil {
		return fmt.Errorf("stop %w", err)
	}
	if st.PID == pid || st.PID == 0 {
		st.PID, st.StartTime = 0, 0
		st.ActiveState, st.SubState, st.Result = "inactive", "dead", result
		if result != "success" { // as systemd: a stop that needed SIGKILL leaves the unit failed
			st.ActiveState, st.SubState = "failed", "failed"
		}
	}
	return d.save(st)
}

// waitExit waits until the process is gone: through the reaper when this
// Direct started it, else by watching /proc.
func (d *Direct) waitExit(ctx context.Context, st *directState, c *child, timeout time.Duration) bool {
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

func (d *Direct) Restart(ctx context.Context, name string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("restart %s: %w", name, err)
	}
	if err := d.Stop(ctx, name); err != nil {
		return fmt.Errorf("restart: %w", err)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	st, err := d.load(name)
	if err != nil {
		return fmt.Errorf("restart %w", err)
	}
	return d.spawn(st, "restart")
}

func (d *Direct) Reload(ctx context.Context, name string) error {
	st, err := d.loadLocked(name)
	if err != nil {
		return fmt.Errorf("reload %w", err)
	}
	if st.Spec.ReloadSignal == "" {
		return fmt.Errorf("reload %s: the unit has no ReloadSignal", name)
	}
	sig, err := ParseSignal(st.Spec.ReloadSignal)
	if err != nil {
		return fmt.Errorf("reload %s: %w", name, err)
	}
	return d.Signal(ctx, name, sig)
}

func (d *Direct) Signal(ctx context.Context, name string, sig os.Signal) error {
	s, err := toSyscallSignal(sig)
	if err != nil {
		return fmt.Errorf("signal %s: %w", name, err)
	}
	st, err := d.loadLocked(name)
	if err != nil {
		return fmt.Errorf("signal %w", err)
	}
	if !st.alive() {
		return fmt.Errorf("signal %s with %s: the unit is not running", name, signalName(s))
	}
	if err := syscall.Kill(st.PID, s); err != nil {
		return fmt.Errorf("signal %s (pid %d) with %s: %w", name, st.PID, signalName(s), err)
	}
	return nil
}

func (d *Direct) Properties(ctx context.Context, name string) (Props, error) {
	d.mu.Lock()
	st, err := d.load(name)
	c := d.children[name]
	d.mu.Unlock()
	if errors.Is(err, errNotInstalled) {
		return Props{Name: name, LoadState: "not-found", ActiveState: "inactive", SubState: "dead"}, nil
	}
	if err != nil {
		return Props{}, fmt.Errorf("properties of %w", err)
	}
	if st.PID != 0 && !st.alive() && c != nil && c.pid == st.PID {
		// Our child has exited; let the reaper record how.
		select {
		case <-c.done:
		case <-time.After(time.Second):
		}
		if st, err = d.loadLocked(name); err != nil {
			return Props{}, fmt.Errorf("properties of %w", err)
		}
	}
	return st.props(d), nil
}

// props derives Props from the state and /proc.
func (st *directState) props(d *Direct) Props {
	p := Props{
		Name: st.Spec.Name, LoadState: "loaded",
		ActiveState: st.ActiveState, SubState: st.SubState, Result: st.Result,
		ExecMainCode: st.ExecMainCode, ExecMainStatus: st.ExecMainStatus, NRestarts: st.NRestarts,
	}
	switch {
	case st.alive():
		p.MainPID = st.PID
		p.MemoryCurrent = procRSS(st.PID)
	case st.PID != 0:
		// Gone while no lab process watched it: how it ended is unknown.
		p.ActiveState, p.SubState, p.Result = "failed", "failed", "unknown"
	}
	return p
}

func (d *Direct) SetDropIn(ctx context.Context, name, dropin string, settings map[string]string) error {
	file, err := dropInFileName(dropin)
	if err != nil {
		return fmt.Errorf("drop-in for %s: %w", name, err)
	}
	if err := validateSettings(name, "drop-in", settings); err != nil {
		return err
	}
	if err := checkDirectSettings(name, "drop-in "+file, settings); err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	st, err := d.load(name)
	if err != nil {
		return fmt.Errorf("drop-in %s for %w", file, err)
	}
	if st.DropIns == nil {
		st.DropIns = map[string]map[string]string{}
	}
	st.DropIns[file] = settings
	return d.save(st)
}

func (d *Direct) RemoveDropIn(ctx context.Context, name, dropin string) error {
	file, err := dropInFileName(dropin)
	if err != nil {
		return fmt.Errorf("drop-in for %s: %w", name, err)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	st, err := d.load(name)
	if errors.Is(err, errNotInstalled) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("remove drop-in %s of %w", file, err)
	}
	delete(st.DropIns, file)
	return d.save(st)
}

func (d *Direct) RemoveLabDropIns(ctx context.Context, name string) ([]string, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	st, err := d.load(name)
	if errors.Is(err, errNotInstalled) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("remove lab drop-ins of %w", err)
	}
	var removed []string
	for _, f := range sortedKeysOf(st.DropIns) {
		if len(f) >= len(LabDropInPrefix) && f[:len(LabDropInPrefix)] == LabDropInPrefix {
			delete(st.DropIns, f)
			removed = append(removed, f)
		}
	}
	if len(removed) == 0 {
		return nil, nil
	}
	return removed, d.save(st)
}

func (d *Direct) LogTail(ctx context.Context, name string, n int) (string, error) {
	st, err := d.loadLocked(name)
	if err != nil {
		return "", fmt.Errorf("log of %w", err)
	}
	return tailFile(st.logFile(d), n)
}

func sortedKeysOf[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
