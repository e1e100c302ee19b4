package session

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A result directory appears whole or not at all: what fill writes is
// not visible under its name until fill returned, a failed fill leaves
// nothing behind, and a second run in the same second gets dir-2.
func TestWriteDirIsAtomic(t *testing.T) {
	results := t.TempDir()
	dir := ResultDir(results, "x", time.Date(2026, 12, 1, 20, 46, 12, 0, time.UTC))
	if want := filepath.Join(results, "x", "20261201-204612"); dir != want {
		t.Fatalf("ResultDir = %s, want %s", dir, want)
	}
	got, err := writeDir(dir, func(tmp string) error {
		if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s visible while it is written (%v)", dir, err)
		}
		return os.WriteFile(filepath.Join(tmp, "run.json"), []byte("{}"), 0o644)
	})
	if err != nil || got != dir {
		t.Fatalf("writeDir = %s, %v", got, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "run.json")); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o755 {
		t.Errorf("mode %v, want 0755", fi.Mode().Perm())
	}

	boom := errors.New("boom")
	if _, err := writeDir(filepath.Join(results, "x", "failed"), func(tmp string) error {
		return boom
	}); !errors.Is(err, boom) {
		t.Fatalf("failed fill: %v", err)
	}
	entries, _ := os.ReadDir(filepath.Join(results, "x"))
	if len(entries) != 1 {
		t.Errorf("after a failed fill: %d entries in %s, want only the first run", len(entries), filepath.Join(results, "x"))
	}

	second, err := writeDir(dir, func(tmp string) error { return nil })
	if err != nil || second != dir+"-2" {
		t.Fatalf("second run in the same second: %s, %v; want %s-2", second, err, dir)
	}
}
