package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab/labtest"
)

// lockedBuffer is a bytes.Buffer a child process writes while the test reads.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// buildLab builds lab and postgrest-mini into a temporary directory.
func buildLab(t *testing.T) string {
	t.Helper()
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", bin+"/", ".", "../postgrest-mini")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	return filepath.Join(bin, "lab")
}

// waitForUnixVariant waits until a running `lab run` of killExperiment has
// put its second variant (unix, db-pool 3) in place and finished a trial,
// then lets half a second of the next trial's load pass. It kills cmd and
// fails the test when that does not happen within limit.
func waitForUnixVariant(t *testing.T, cmd *exec.Cmd, out *lockedBuffer, conf string, limit time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		b, _ := os.ReadFile(conf)
		if bytes.Contains(b, []byte("db-pool = 3")) && strings.Contains(out.String(), "[1/4]") {
			break
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			t.Fatalf("the run never applied the unix variant:\n%s", out.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(500 * time.Millisecond) // inside the trial's load
}

// labTarget is a server the command tests run the lab against, given to
// `lab stack up` as flags.
type labTarget struct {
	name      string // short: it ends up in the stack's socket path (at most 107 bytes)
	reference bool
	flags     func(t *testing.T) []string
}

// labTargets are the real PostgREST ($LAB_POSTGREST; CI=true fails
// without it) and postgrest-mini: the one built next to lab by buildLab,
// or, with lab == "", the one `stack up` finds or builds itself.
func labTargets(lab string) []labTarget {
	return []labTarget{
		{"real", false, func(t *testing.T) []string { return []string{"--postgrest", labtest.PostgREST(t)} }},
		{"mini", true, func(t *testing.T) []string {
			if lab == "" {
				return nil
			}
			return []string{"--postgrest", filepath.Join(filepath.Dir(lab), "postgrest-mini")}
		}},
	}
}
