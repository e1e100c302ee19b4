package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// Finding 8 (round 3): an internal error (a recovered panic) reaches the
// terminal as one line saying it is a bug and where its stack trace was
// written, not as a Go trace.
func TestAttackExperimentFileInternalErrorStack(t *testing.T) {
	dir := t.TempDir()
	if note := writeStack(fmt.Errorf("plain"), dir); note != "" {
		t.Fatalf("a plain error got a note: %s", note)
	}
	var ie *lab.InternalError
	func() {
		defer func() { ie = lab.NewInternalError("the run", recover()) }()
		panic("injected")
	}()
	err := fmt.Errorf("run: %w", ie)
	note := writeStack(err, dir)
	files, _ := filepath.Glob(filepath.Join(dir, "lab-internal-error-*.txt"))
	if len(files) != 1 || !strings.Contains(note, files[0]) || strings.Contains(note, "goroutine") {
		t.Fatalf("note %q, files %v", note, files)
	}
	b, _ := os.ReadFile(files[0])
	if !strings.Contains(string(b), "internal error (a bug in pgrst-lab) in the run: injected") || !strings.Contains(string(b), "goroutine ") {
		t.Fatalf("stack file:\n%s", b)
	}
	if strings.Contains(err.Error(), "goroutine ") {
		t.Fatalf("the error text holds the stack: %v", err)
	}
}
