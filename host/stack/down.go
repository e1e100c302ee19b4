package stack

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// Down stops and removes the stack's units (only those stack.json records).
// The cluster's data stays unless purge, which removes everything the lab
// put in the state directory, and the directory when it is then empty.
func (s *Stack) Down(ctx context.Context, purge bool) error {
	ctrl, err := s.Controller(ctx)
	if err != nil {
		return err
	}
	f := &s.facts
	var errs []error
	for _, unit := range slices.Backward(slices.Clone(f.Installed)) { // target first: it uses PostgreSQL
		if err := ctrl.Uninstall(ctx, unit); err != nil {
			errs = append(errs, fmt.Errorf("remove %s: %w", unit, err))
			continue
		}
		f.setInstalled(unit, false)
	}
	if len(errs) > 0 {
		_ = writeFacts(*f)
		return errors.Join(errs...)
	}
	if !purge {
		return writeFacts(*f)
	}
	// journal: the config journal `lab run` keeps in the stack's dir
	// (configs.OpenJournal); what it could restore is purged with it.
	// lab.lock: the lock a lab agent or lab run holds on the stack
	// (wire.LockFile).
	for _, p := range []string{f.dataDir(), f.socketDir(), f.logDir(), f.configPath(), filepath.Join(f.Dir, "bin"),
		filepath.Join(f.Dir, "supervisor"), filepath.Join(f.Dir, "journal"), f.twinDir(), filepath.Join(f.Dir, "lab.lock"),
		filepath.Join(f.Dir, FactsFile)} {
		if err := os.RemoveAll(p); err != nil {
			errs = append(errs, fmt.Errorf("purge: %w", err))
		}
	}
	_ = os.Remove(f.Dir) // only when empty: never remove what the lab did not put there
	return errors.Join(errs...)
}
