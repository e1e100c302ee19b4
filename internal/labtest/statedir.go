package labtest

import (
	"os"
	"path/filepath"
	"testing"
)

// StateDir returns a fresh, not yet existing directory for a lab stack
// (DIR/lab inside t.TempDir()). The temporary directories above it are made
// enterable by others, so that PostgreSQL, run as the postgres user when the
// tests run as root, can reach its data and socket directories.
func StateDir(t testing.TB) string {
	t.Helper()
	d := t.TempDir()
	for _, p := range []string{filepath.Dir(d), d} {
		if err := os.Chmod(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(d, "lab")
}

// SharedDir returns a fresh, empty directory that every user may enter
// (mode 0755 up from the temporary directory): for what a root lab hands
// to an unprivileged account (a build cache, a store of binaries).
func SharedDir(t testing.TB) string {
	t.Helper()
	return filepath.Dir(StateDir(t))
}
