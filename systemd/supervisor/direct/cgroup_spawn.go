package direct

import (
	"context"
	"fmt"
	"os"
	"os/exec"
)

// gateScript holds the service until the supervisor has moved it into its
// cgroup (a line "go" on fd 3), then execs it in place, keeping the PID:
// every page and CPU second of the service is the cgroup's. Without the
// line (the supervisor failed) it exits 203, as systemd's EXIT_EXEC.
const gateScript = `IFS= read -r go <&3 && [ "$go" = go ] || exit 203; exec 3<&-; exec "$@"`

// cgroupStart is a started-but-held process's way into its cgroup.
type cgroupStart struct {
	cg         *unitCgroup
	hold, gate *os.File // the pipe's read end (the child's fd 3) and write end
}

// prepareCgroup makes st's cgroup when its settings need one and wraps
// cmd in the gate; nil when they need none. A cgroup left by a process
// that died unobserved is removed first.
func (d *Supervisor) prepareCgroup(st *directState, cmd *exec.Cmd) (*cgroupStart, error) {
	if st.Cgroup != nil {
		if err := st.Cgroup.remove(context.Background()); err != nil {
			return nil, err
		}
		st.Cgroup = nil
	}
	settings, _ := st.settings()
	if len(cgroupKeys(settings)) == 0 {
		return nil, nil
	}
	writes, err := d.cgroupWrites(settings)
	if err != nil {
		return nil, fmt.Errorf("unit %s: %w", st.Spec.Name, err)
	}
	if cmd.Err != nil {
		return nil, cmd.Err
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		return nil, fmt.Errorf("unit %s: the cgroup gate: %w", st.Spec.Name, err)
	}
	l, err := d.layout()
	if err != nil {
		return nil, err
	}
	cg, err := createCgroup(l, cgroupRel(d.dir, st.Spec.Name), writes)
	if err != nil {
		return nil, fmt.Errorf("unit %s: %w", st.Spec.Name, err)
	}
	hold, gate, err := os.Pipe()
	if err != nil {
		_ = cg.remove(context.Background())
		return nil, fmt.Errorf("unit %s: the cgroup gate: %w", st.Spec.Name, err)
	}
	cmd.Args = append([]string{sh, "-c", gateScript, "pgrst-lab-cgroup-gate", cmd.Path}, cmd.Args[1:]...)
	cmd.Path = sh
	cmd.ExtraFiles = []*os.File{hold}
	return &cgroupStart{cg: cg, hold: hold, gate: gate}, nil
}

// enter moves the started process into the cgroup and lets it exec.
func (c *cgroupStart) enter(pid int) error {
	c.hold.Close()
	defer c.gate.Close()
	if err := c.cg.attach(pid); err != nil {
		return err
	}
	if _, err := c.gate.WriteString("go\n"); err != nil {
		return fmt.Errorf("cgroup gate: %w", err)
	}
	return nil
}

// abandon undoes prepareCgroup when the process did not start or did
// not get into its cgroup: a held process exits (the gate closes without
// "go") and is reaped by wait.
func (c *cgroupStart) abandon(wait func() error) {
	if c == nil {
		return
	}
	c.hold.Close()
	c.gate.Close()
	if wait != nil {
		_ = wait()
	}
	_ = c.cg.remove(context.Background())
}
