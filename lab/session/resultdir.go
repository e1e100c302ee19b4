package session

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/pgrst-lab/pgrst-lab/internal/atomicfile"
)

// StampLayout is how a result directory is named after the time its run
// started (UTC): RESULTS/<experiment>/20261201-204612/.
const StampLayout = "20060102-150405"

// Stamp names a result directory after t.
func Stamp(t time.Time) string { return t.UTC().Format(StampLayout) }

// ResultDir is where a run of experiment that started at t is written
// under results.
func ResultDir(results, experiment string, t time.Time) string {
	return filepath.Join(results, experiment, Stamp(t))
}

// writeDir makes dir with everything fill writes into it, atomically: fill
// writes into a temporary sibling directory, which is renamed to dir once
// fill succeeded (and removed when it failed), so that a reader never sees
// a result directory with half of its files. When dir exists already (two
// runs in one second), the new one is dir-2, dir-3, ...; writeDir returns
// the name it used.
func writeDir(dir string, fill func(tmp string) error) (string, error) {
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", fmt.Errorf("results: %w", err)
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".tmp-")
	if err != nil {
		return "", fmt.Errorf("results: %w", err)
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		os.RemoveAll(tmp)
		return "", fmt.Errorf("results: %w", err)
	}
	if err := fill(tmp); err != nil {
		os.RemoveAll(tmp)
		return "", err
	}
	name := dir
	for i := 2; ; i++ {
		err := os.Rename(tmp, name)
		if err == nil {
			break
		}
		if !errors.Is(err, os.ErrExist) { // EEXIST or ENOTEMPTY: the name is taken
			os.RemoveAll(tmp)
			return "", fmt.Errorf("results: %w", err)
		}
		if i > 99 {
			os.RemoveAll(tmp)
			return "", fmt.Errorf("results: %s and 98 siblings exist", dir)
		}
		name = fmt.Sprintf("%s-%d", dir, i)
	}
	return name, atomicfile.SyncDir(parent)
}
