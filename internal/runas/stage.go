package runas

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/pgrst-lab/pgrst-lab/internal/atomicfile"
)

// Stage returns a path a can execute that runs the same program as path:
// path itself when a can execute it, else a copy in dir (mode 0755, the
// lab's; named by its content's hash, so a copy is made once), e.g. a
// build under root's 0700 home. dir is created when missing and must be
// reachable by a.
func Stage(path, dir string, a Account) (string, error) {
	if a.CanExecute(path) == nil {
		return path, nil
	}
	src, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("stage %s for %s: %w", path, a.Name, err)
	}
	defer src.Close()
	fi, err := src.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return "", fmt.Errorf("stage %s for %s: not a regular file (%v)", path, a.Name, err)
	}
	data, err := io.ReadAll(src) // one read: what is hashed is what is written
	if err != nil {
		return "", fmt.Errorf("stage %s: %w", path, err)
	}
	sum := sha256.Sum256(data)
	out := filepath.Join(dir, hex.EncodeToString(sum[:6])+"-"+filepath.Base(path))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("stage %s: %w", path, err)
	}
	if err := a.CanEnter(dir); err != nil {
		return "", fmt.Errorf("stage %s into %s: %w (choose a state directory %s can reach)", path, dir, err, a.Name)
	}
	if have, err := os.ReadFile(out); err == nil && sha256.Sum256(have) == sum {
		return out, nil
	}
	if err := atomicfile.Write(out, data, atomicfile.Options{Mode: 0o755}); err != nil {
		return "", fmt.Errorf("stage %s: %w", path, err)
	}
	return out, nil
}
