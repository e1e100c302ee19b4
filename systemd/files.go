package systemd

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/lab/atomicfile"
)

// writeFileAtomic replaces path with data (mode 0644), so a manager reload
// or a crash never sees half a file.
func writeFileAtomic(path string, data []byte) error {
	return atomicfile.Write(path, data, atomicfile.Options{Mode: 0o644})
}

// removeLabDropInFiles removes dir/50-lab-*.conf and returns the removed
// names; a missing dir is not an error.
func removeLabDropInFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var removed []string
	var errs []error
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), LabDropInPrefix) || !strings.HasSuffix(e.Name(), ".conf") {
			continue
		}
		if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
			errs = append(errs, err)
			continue
		}
		removed = append(removed, e.Name())
	}
	return removed, errors.Join(errs...)
}
