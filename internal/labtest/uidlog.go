package labtest

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// UIDWrapper is a hostile-looking binary for privilege tests: a shell
// script that appends the uid it runs as and its arguments to Log, then
// execs Real with its arguments (a PostgREST, or anything).
type UIDWrapper struct {
	Path string // the script
	Log  string // one line per execution: "UID ARGS..."
}

// NewUIDWrapper writes a UIDWrapper at path (mode 0755) that logs to log
// (made mode 0666 in a directory every user may enter, so that whoever runs
// the wrapper can write it) and execs real.
func NewUIDWrapper(t testing.TB, path, log, real string) UIDWrapper {
	t.Helper()
	for _, d := range []string{filepath.Dir(path), filepath.Dir(log)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(log, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(log, 0o666); err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\necho \"$(id -u) $*\" >> '" + log + "'\nexec '" + real + "' \"$@\"\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return UIDWrapper{Path: path, Log: log}
}

// UIDs are the uids the wrapper ran as, one per execution, in order.
func (w UIDWrapper) UIDs(t testing.TB) []int {
	t.Helper()
	b, err := os.ReadFile(w.Log)
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		n, err := strconv.Atoi(f[0])
		if err != nil {
			t.Fatalf("%s: line %q", w.Log, line)
		}
		out = append(out, n)
	}
	return out
}

// NoRoot fails the test when the wrapper ever ran as root, and returns how
// often it ran.
func (w UIDWrapper) NoRoot(t testing.TB) int {
	t.Helper()
	uids := w.UIDs(t)
	for _, u := range uids {
		if u == 0 {
			b, _ := os.ReadFile(w.Log)
			t.Fatalf("%s ran as root (uid 0); its executions:\n%s", w.Path, b)
		}
	}
	return len(uids)
}
