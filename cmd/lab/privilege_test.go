package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/host/stack"
	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/internal/runas"
	"github.com/pgrst-lab/pgrst-lab/systemd"
)

// Issue 52, finding 1, end to end: `lab validate --postgrest X` and `lab
// ab evil=/D/pgw base=...` ran the wrapper as root (--version,
// --dump-config) before refusing it. Now the hostile wrapper (nobody's, in
// nobody's directory) never runs, and a good wrapper of the real
// PostgREST runs as the target's account every time: its version probe,
// its --dump-config, and the server itself: 14.17 under the systemd user
// manager and 13.0.8 under the direct supervisor (each version and each
// supervisor once; the server sides are the same code).
func TestNothingAroundTheTargetRunsAsRoot(t *testing.T) {
	t.Parallel() // structure, not an effect's size: see parallelTests
	if os.Geteuid() != 0 {
		labtest.Need(t, "what a root lab runs as another user needs root")
	}
	nobody, err := runas.Lookup("nobody")
	if err != nil {
		t.Fatal(err)
	}
	for i, real := range labtest.PostgRESTs(t) {
		{
			sup := []systemd.Mode{systemd.ModeSystemd, systemd.ModeDirect}[i%2]
			t.Run("PostgREST_"+real.Version+"/"+string(sup), func(t *testing.T) {
				if sup == systemd.ModeSystemd {
					labtest.RequireSystemd(t)
				}
				dir := labDir(t)
				t.Cleanup(func() {
					if s, err := stack.Open(dir); err == nil {
						_ = s.Down(context.Background(), true)
						s.Close()
					}
				})
				if out, err := runLabEnv(t, nil, "stack", "up", "--dir", dir, "--supervisor", string(sup), "--postgrest", real.Path); err != nil {
					t.Fatalf("stack up: %v\n%s", err, out)
				}
				base := labtest.SharedDir(t)
				// The logs lie in the state directory: the sandboxed target sees it.
				good := labtest.NewUIDWrapper(t, filepath.Join(base, "bin", "postgrest"), filepath.Join(dir, "good.log"), real.Path)
				theirDir := filepath.Join(base, "D")
				evil := labtest.NewUIDWrapper(t, filepath.Join(theirDir, "pgw"), filepath.Join(dir, "evil.log"), real.Path)
				for _, p := range []string{theirDir, evil.Path} {
					if err := os.Chown(p, nobody.UID, nobody.GID); err != nil {
						t.Fatal(err)
					}
				}
				if out, err := runLabEnv(t, nil, "validate", "--postgrest", evil.Path, "socket-vs-tcp"); err == nil || !strings.Contains(err.Error(), "belongs to uid") {
					t.Errorf("validate --postgrest evil: %v\n%s", err, out)
				}
				if out, err := runLabEnv(t, nil, "ab", "evil="+evil.Path, "base="+real.Path, "GETSingle", "--dir", dir); err == nil || !strings.Contains(err.Error(), "belongs to uid") {
					t.Errorf("ab evil=...: %v\n%s", err, out)
				}
				if n := len(evil.UIDs(t)); n != 0 {
					t.Errorf("the hostile wrapper ran %d times before it was refused (uids %v)", n, evil.UIDs(t))
				}
				if out, err := runLabEnv(t, nil, "validate", "--postgrest", good.Path, "socket-vs-tcp"); err != nil {
					t.Errorf("validate --postgrest good: %v\n%s", err, out)
				}
				if out, err := runLabEnv(t, nil, "ab", "good="+good.Path, "base="+real.Path, "GETSingle", "--dir", dir, "--results", t.TempDir(),
					"--min-trials", "2", "--max-trials", "2", "--duration", "1s", "--warmup", "0s"); err != nil {
					t.Fatalf("ab good=...: %v\n%s", err, out)
				}
				good.NoRoot(t)
				log, _ := os.ReadFile(good.Log)
				for _, want := range []string{"--version", "--dump-config", "postgrest.conf"} {
					if !strings.Contains(string(log), want) {
						t.Errorf("the good wrapper never ran with %s (so its uid was not seen); its executions:\n%s", want, log)
					}
				}
			})
		}
	}
}
