package systemd

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/internal/atomicfile"
	"github.com/pgrst-lab/pgrst-lab/internal/safefile"
)

// writeFileAtomic replaces path with data (mode 0644), so a manager reload
// or a crash never sees half a file.
func writeFileAtomic(path string, data []byte) error {
	return atomicfile.Write(path, data, atomicfile.Options{Mode: 0o644})
}

// OpenPrivateLog opens (creating) a unit's log for appending with mode
// 0600, also when an older lab left it readable by others: a log can hold
// what the service printed about its config (an error quoting a file, a
// connection string). It never follows a link or opens a file someone else
// planted at path (package safefile): whatever is there and is not a plain
// file of the lab's user is replaced by a new one, since the lab (often
// root) opens it in a directory another user may once have written.
func OpenPrivateLog(path string) (*os.File, error) {
	return safefile.OpenAppend(path, 0o600)
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
