package experiments

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/internal/atomicfile"
	"github.com/pgrst-lab/pgrst-lab/internal/safefile"
)

// bundledFilesDir is where a bundled experiment's targets file (and the
// body files next to it) are written for the run to read, under the
// user's cache directory: they are embedded in the lab, not on disk.
const bundledFilesDir = "pgrst-lab/experiments"

// bundledTargets writes the embedded directory of a bundled experiment's
// targets file ("loadtest/targets.http": the directory loadtest, its files
// only) to the cache directory, each file unless it is there already with
// the same content, and returns the targets file's path there, resolved
// (the run reads it without following links).
func bundledTargets(name string) (string, error) { return bundledFile(name, "targets", ".http") }

// bundledFile is bundledTargets for any file a bundled experiment names
// (key, for messages), whose name ends in ext.
func bundledFile(name, key, ext string) (string, error) {
	dir, file := path.Split(name)
	dir = strings.TrimSuffix(dir, "/")
	if dir == "" || strings.Contains(dir, "/") || !strings.HasSuffix(file, ext) || !path.IsAbs("/"+name) || path.Clean(name) != name {
		return "", fmt.Errorf("%q: a bundled experiment's %s must be DIR/NAME%s, in a directory next to it", name, key, ext)
	}
	if _, err := bundled.ReadFile(name); err != nil {
		return "", fmt.Errorf("%q is not bundled with the lab", name)
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("%q: no cache directory to write it to: %w", name, err)
	}
	out := filepath.Join(cache, bundledFilesDir, dir)
	if err := os.MkdirAll(out, 0o755); err != nil {
		return "", fmt.Errorf("%q: %w", name, err)
	}
	entries, err := bundled.ReadDir(dir)
	if err != nil {
		return "", fmt.Errorf("%q: %w", name, err)
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		b, err := bundled.ReadFile(dir + "/" + e.Name())
		if err != nil {
			return "", fmt.Errorf("%q: %w", name, err)
		}
		p := filepath.Join(out, e.Name())
		if old, err := safefile.ReadBounded(p, int64(len(b))+1); err == nil && bytes.Equal(old, b) {
			continue
		}
		if err := atomicfile.Write(p, b, atomicfile.Options{Mode: 0o644}); err != nil {
			return "", fmt.Errorf("%q: %w", name, err)
		}
	}
	p, err := filepath.EvalSymlinks(filepath.Join(out, file))
	if err != nil {
		return "", fmt.Errorf("%q: %w", name, err)
	}
	return p, nil
}
