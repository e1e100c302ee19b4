package atomicfile

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteReplacesWithModeAndLeavesNoTemp(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.conf")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	var sawTemp bool
	err := Write(path, []byte("new"), Options{Mode: 0o640, BeforeRename: func(p string) {
		m, _ := filepath.Glob(filepath.Join(dir, ".a.conf"+TempPrefix+"*"))
		sawTemp = len(m) == 1
		if b, _ := os.ReadFile(p); !bytes.Equal(b, []byte("old")) {
			t.Errorf("target changed before the rename: %q", b)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if !sawTemp {
		t.Error("no temporary file before the rename")
	}
	b, _ := os.ReadFile(path)
	fi, _ := os.Stat(path)
	if string(b) != "new" || fi.Mode().Perm() != 0o640 {
		t.Fatalf("got %q mode %v", b, fi.Mode())
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".*")); len(m) != 0 {
		t.Fatalf("left behind: %v", m)
	}
}

func TestWriteDefaultModeAndRemoveTemps(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "b.json")
	if err := Write(path, []byte("{}"), Options{}); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
		t.Fatalf("mode %v, want 0644", fi.Mode())
	}
	stale := filepath.Join(dir, ".b.json"+TempPrefix+"123")
	os.WriteFile(stale, nil, 0o600)
	RemoveTemps(path)
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Fatal("stale temp file not removed")
	}
	if err := Write(filepath.Join(dir, "missing", "c"), nil, Options{}); err == nil {
		t.Fatal("write into a missing directory succeeded")
	}
}
