package direct

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/pgrst-lab/pgrst-lab/systemd"
)

func (d *Supervisor) SetDropIn(ctx context.Context, name, dropin string, settings map[string]string) error {
	file, err := systemd.DropInFileName(dropin)
	if err != nil {
		return fmt.Errorf("drop-in for %s: %w", name, err)
	}
	if err := systemd.ValidateSettings(name, "drop-in", settings); err != nil {
		return err
	}
	if err := d.checkSettings(name, "drop-in "+file, settings); err != nil {
		return err
	}
	return d.updateState(name, "drop-in "+file, func(st *directState) {
		if st.DropIns == nil {
			st.DropIns = map[string]map[string]string{}
		}
		st.DropIns[file] = settings
	})
}

// updateState loads an installed unit's state under its lock, lets change
// edit it and saves it.
func (d *Supervisor) updateState(name, what string, change func(st *directState)) error {
	unlock := d.lockUnit(name)
	defer unlock()
	st, err := d.load(name)
	if err != nil {
		return fmt.Errorf("%s for %w", what, err)
	}
	change(st)
	return d.save(st)
}

func (d *Supervisor) RemoveDropIn(ctx context.Context, name, dropin string) error {
	file, err := systemd.DropInFileName(dropin)
	if err != nil {
		return fmt.Errorf("drop-in for %s: %w", name, err)
	}
	unlock := d.lockUnit(name)
	defer unlock()
	st, err := d.load(name)
	if errors.Is(err, errNotInstalled) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("remove drop-in %s of %w", file, err)
	}
	delete(st.DropIns, file)
	delete(st.Env, file)
	return d.save(st)
}

// SetEnvironment keeps env as a list in the unit's state; the next start
// appends it to exec.Cmd.Env as it is.
func (d *Supervisor) SetEnvironment(ctx context.Context, name, dropin string, env []string) error {
	file, err := systemd.DropInFileName(dropin)
	if err != nil {
		return fmt.Errorf("environment for %s: %w", name, err)
	}
	for _, a := range env {
		if err := systemd.CheckEnv(name, a); err != nil {
			return err
		}
	}
	return d.updateState(name, "environment "+file, func(st *directState) {
		if st.Env == nil {
			st.Env = map[string][]string{}
		}
		if len(env) == 0 {
			delete(st.Env, file)
		} else {
			st.Env[file] = append([]string(nil), env...)
		}
	})
}

func (d *Supervisor) RemoveLabDropIns(ctx context.Context, name string) ([]string, error) {
	unlock := d.lockUnit(name)
	defer unlock()
	st, err := d.load(name)
	if errors.Is(err, errNotInstalled) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("remove lab drop-ins of %w", err)
	}
	var removed []string
	for _, f := range slices.Sorted(maps.Keys(st.DropIns)) {
		if len(f) >= len(systemd.LabDropInPrefix) && f[:len(systemd.LabDropInPrefix)] == systemd.LabDropInPrefix {
			delete(st.DropIns, f)
			removed = append(removed, f)
		}
	}
	for _, f := range slices.Sorted(maps.Keys(st.Env)) {
		if len(f) >= len(systemd.LabDropInPrefix) && f[:len(systemd.LabDropInPrefix)] == systemd.LabDropInPrefix {
			delete(st.Env, f)
			removed = append(removed, systemd.EnvFileName(f))
		}
	}
	if len(removed) == 0 {
		return nil, nil
	}
	return removed, d.save(st)
}

func (d *Supervisor) LogTail(ctx context.Context, name string, n int) (string, error) {
	st, err := d.loadLocked(name)
	if err != nil {
		return "", fmt.Errorf("log of %w", err)
	}
	return systemd.TailFile(st.logFile(d), n)
}
