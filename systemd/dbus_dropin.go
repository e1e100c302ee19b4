package systemd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// SetDropIn writes <unit>.d/50-lab-<dropin>.conf and reloads the manager.
func (d *DBus) SetDropIn(ctx context.Context, name, dropin string, settings map[string]string) error {
	file, err := DropInFileName(dropin)
	if err != nil {
		return fmt.Errorf("drop-in for %s: %w", name, err)
	}
	text, err := RenderDropIn(name, settings)
	if err != nil {
		return err
	}
	return d.writeDropIn(ctx, name, "drop-in", file, text)
}

// writeDropIn writes text as <unit>.d/<file>, reloads and checks the unit
// still loads.
func (d *DBus) writeDropIn(ctx context.Context, name, what, file, text string) error {
	ctx, cancel := d.callCtx(ctx, 0)
	defer cancel()
	dir := d.unitPath(name) + ".d"
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("%s %s for %s: %w", what, file, name, err)
	}
	if err := writeFileAtomic(filepath.Join(dir, file), []byte(text)); err != nil {
		return fmt.Errorf("%s %s for %s: %w", what, file, name, err)
	}
	if err := d.daemonReload(ctx); err != nil {
		return fmt.Errorf("%s %s for %s: %w", what, file, name, err)
	}
	return d.checkLoaded(ctx, what+" "+file+" for", name)
}

func (d *DBus) RemoveDropIn(ctx context.Context, name, dropin string) error {
	file, err := DropInFileName(dropin)
	if err != nil {
		return fmt.Errorf("drop-in for %s: %w", name, err)
	}
	ctx, cancel := d.callCtx(ctx, 0)
	defer cancel()
	removed := false
	for _, f := range []string{file, EnvFileName(file)} {
		err = os.Remove(filepath.Join(d.unitPath(name)+".d", f))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("remove drop-in %s of %s: %w", f, name, err)
		}
		removed = true
	}
	if !removed {
		return nil
	}
	return d.daemonReload(ctx)
}

// SetEnvironment writes one Environment= line per assignment, each checked
// (printable single-line text) and quoted whole for systemd's own parser,
// into <unit>.d/<dropin>-env.conf, and reloads. systemd offers no D-Bus
// call that sets the environment of a persistent unit, so the list goes
// through a drop-in; it is never joined into one line.
func (d *DBus) SetEnvironment(ctx context.Context, name, dropin string, env []string) error {
	file, err := DropInFileName(dropin)
	if err != nil {
		return fmt.Errorf("environment for %s: %w", name, err)
	}
	file = EnvFileName(file)
	if len(env) == 0 {
		ctx, cancel := d.callCtx(ctx, 0)
		defer cancel()
		err := os.Remove(filepath.Join(d.unitPath(name)+".d", file))
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("remove environment %s of %s: %w", file, name, err)
		}
		return d.daemonReload(ctx)
	}
	text, err := RenderEnvDropIn(name, env)
	if err != nil {
		return err
	}
	return d.writeDropIn(ctx, name, "environment", file, text)
}

func (d *DBus) RemoveLabDropIns(ctx context.Context, name string) ([]string, error) {
	if err := ValidateUnitName(name); err != nil {
		return nil, err
	}
	ctx, cancel := d.callCtx(ctx, 0)
	defer cancel()
	removed, err := removeLabDropInFiles(d.unitPath(name) + ".d")
	if err != nil {
		return removed, fmt.Errorf("remove lab drop-ins of %s: %w", name, err)
	}
	if len(removed) > 0 {
		return removed, d.daemonReload(ctx)
	}
	return nil, nil
}
