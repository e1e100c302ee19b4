package labtest

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// RuntimeDir returns the XDG runtime directory of the current user
// ($XDG_RUNTIME_DIR, else /run/user/UID).
func RuntimeDir() string {
	if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" {
		return d
	}
	return fmt.Sprintf("/run/user/%d", os.Getuid())
}

// RequireSystemd makes sure a systemd user manager is reachable (its private
// socket exists) and sets XDG_RUNTIME_DIR for the test when it was unset.
func RequireSystemd(t testing.TB) {
	t.Helper()
	dir := RuntimeDir()
	if _, err := os.Stat(filepath.Join(dir, "systemd", "private")); err != nil {
		Need(t, "no systemd user manager at %s (start one as in docs/ci.md): %v", dir, err)
		return
	}
	if os.Getenv("XDG_RUNTIME_DIR") == "" {
		t.Setenv("XDG_RUNTIME_DIR", dir)
	}
}
