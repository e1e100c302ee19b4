package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab/record"
	"github.com/pgrst-lab/pgrst-lab/lab/session"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// Issue 41, item 6b: `lab run` appends its summary to $GITHUB_STEP_SUMMARY
// without following links. A link planted at that path (to a file the
// user can write, e.g. a shell's startup file) is refused and its target
// left as it was; so is a FIFO (without blocking); a plain file is
// appended to. The old code opened the path following links and appended
// the summary to the link's target.
func TestStepSummaryFollowsNoLink(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "efficiency-tiny", "20261201-205418")
	copyRun(t, "run-efficiency-real.json", dir)
	r, err := record.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	res := &session.Result{Run: r, Verdicts: stats.Compare(r, 0), Dir: dir}
	tmp := t.TempDir()
	victim := writeFile(t, tmp, "victim", "precious\n", 0o644)
	link := filepath.Join(tmp, "summary-link")
	if err := os.Symlink(victim, link); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(tmp, "summary-dangling")
	if err := os.Symlink(filepath.Join(tmp, "created-through-link"), dangling); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(tmp, "summary-fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{link: "symbolic link", dangling: "symbolic link", fifo: "not a regular file"} {
		t.Setenv(stepSummaryEnv, path)
		done := make(chan error, 1)
		go func() { done <- (&prFlags{}).finish(res, nil, io.Discard) }()
		var err error
		select {
		case err = <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: the summary's write blocked", filepath.Base(path))
		}
		if err == nil || !strings.Contains(err.Error(), "$"+stepSummaryEnv) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: want a refusal saying %q, got %v", filepath.Base(path), want, err)
		}
	}
	if b, _ := os.ReadFile(victim); string(b) != "precious\n" {
		t.Errorf("the link's target was written to: %.200q", b)
	}
	if _, err := os.Lstat(filepath.Join(tmp, "created-through-link")); err == nil {
		t.Errorf("a file was created through the dangling link")
	}
	plain := writeFile(t, tmp, "summary", "an earlier step's summary\n", 0o644)
	t.Setenv(stepSummaryEnv, plain)
	if err := (&prFlags{}).finish(res, nil, io.Discard); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(plain); !strings.HasPrefix(string(b), "an earlier step's summary\n<!-- pgrst-lab -->\n### pgrst-lab:") {
		t.Errorf("the plain file was not appended to:\n%.300s", b)
	}
}
