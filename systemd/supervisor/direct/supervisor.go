package direct

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/pgrst-lab/pgrst-lab/systemd"
)

// Supervisor supervises services without systemd. Each service runs in its own
// session and process group (setsid), so it outlives the lab process; its
// spec, drop-ins and PID are kept as JSON in the state dir, so a later lab
// process can inspect, stop or restart it. Stop sends KillSignal (default
// SIGTERM) to the group and SIGKILL after StopTimeout. Output is appended to
// LogFile (default <state dir>/<unit>.log). Restart= is honoured only while
// the process that started the service is alive.
//
// Changes to a unit's state are serialised across lab processes with
// flock(2) on <state dir>/<unit>.lock.
type Supervisor struct {
	dir string
	// readLayout says where the cgroup hierarchies are (nil: this host's,
	// from /proc/self/mountinfo).
	readLayout func() (layout, error)

	mu       sync.Mutex
	children map[string]*child // processes this Supervisor started, by unit
	closed   bool
}

// child is a process this Supervisor started and reaps.
type child struct {
	pid      int
	done     chan struct{} // closed once the exit is recorded
	stopping bool          // guarded by Supervisor.mu; set by Stop
}

var _ systemd.Controller = (*Supervisor)(nil)

// New returns a direct supervisor keeping its state in stateDir
// (created 0700 when missing).
func New(stateDir string) (*Supervisor, error) {
	if stateDir == "" {
		return nil, errors.New("systemd: direct supervisor: empty state dir")
	}
	if err := os.MkdirAll(stateDir, 0o700); err != nil {
		return nil, fmt.Errorf("systemd: direct supervisor state dir: %w", err)
	}
	return &Supervisor{dir: stateDir, children: map[string]*child{}}, nil
}

// layout is where this host's cgroup hierarchies are.
func (d *Supervisor) layout() (layout, error) {
	if d.readLayout != nil {
		return d.readLayout()
	}
	return hostLayout()
}

func (d *Supervisor) Kind() systemd.Kind { return systemd.KindDirect }

func (d *Supervisor) Describe() string {
	return "direct process supervisor (no systemd; state in " + d.dir + ")"
}

// Close forgets the children; the services keep running.
func (d *Supervisor) Close() error {
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

func (d *Supervisor) Install(ctx context.Context, spec systemd.UnitSpec) error {
	if err := spec.Validate(); err != nil {
		return err
	}
	if err := d.checkSettings(spec.Name, "Extra", spec.Extra); err != nil {
		return err
	}
	unlock := d.lockUnit(spec.Name)
	defer unlock()
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

func (d *Supervisor) Uninstall(ctx context.Context, name string) error {
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
	unlock := d.lockUnit(name)
	defer unlock()
	for _, p := range []string{d.statePath(name), d.defaultLog(name), filepath.Join(d.dir, name+".lock")} {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, fmt.Errorf("uninstall %s: %w", name, err))
		}
	}
	return errors.Join(errs...)
}

func (d *Supervisor) loadLocked(name string) (*directState, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.load(name)
}

func (d *Supervisor) Properties(ctx context.Context, name string) (systemd.Props, error) {
	d.mu.Lock()
	st, err := d.load(name)
	c := d.children[name]
	d.mu.Unlock()
	if errors.Is(err, errNotInstalled) {
		return systemd.Props{Name: name, LoadState: "not-found", ActiveState: "inactive", SubState: "dead"}, nil
	}
	if err != nil {
		return systemd.Props{}, fmt.Errorf("properties of %w", err)
	}
	if st.PID != 0 && !st.alive() && c != nil && c.pid == st.PID {
		// Our child has exited; let the reaper record how.
		select {
		case <-c.done:
		case <-time.After(time.Second):
		}
		if st, err = d.loadLocked(name); err != nil {
			return systemd.Props{}, fmt.Errorf("properties of %w", err)
		}
	}
	return st.props(d), nil
}

// props derives systemd.Props from the state and /proc.
func (st *directState) props(d *Supervisor) systemd.Props {
	p := systemd.Props{
		Name: st.Spec.Name, LoadState: "loaded",
		ActiveState: st.ActiveState, SubState: st.SubState, Result: st.Result,
		ExecMainCode: st.ExecMainCode, ExecMainStatus: st.ExecMainStatus, NRestarts: st.NRestarts,
	}
	switch {
	case st.alive():
		p.MainPID = st.PID
		p.MemoryCurrent = procRSS(st.PID)
		if st.Cgroup != nil {
			p.ControlGroup = st.Cgroup.Rel
			if m, ok := st.Cgroup.memoryCurrent(); ok {
				p.MemoryCurrent = m
			}
		}
	case st.PID != 0:
		// Gone while no lab process watched it: how it ended is unknown.
		p.ActiveState, p.SubState, p.Result = "failed", "failed", "unknown"
	}
	return p
}
