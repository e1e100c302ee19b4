package systemd

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
)

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
	unlock := d.lockUnit(name)
	defer unlock()
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
	return d.save(st)
}

func (d *Direct) RemoveLabDropIns(ctx context.Context, name string) ([]string, error) {
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
