package main

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/configs"
	"github.com/pgrst-lab/pgrst-lab/host/stack"
	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/systemd"
)

// A run that changes the target's config and pins PostgreSQL to CPU 0 (a
// drop-in on its unit), long enough to be interrupted.
const killExperiment = `
name = "kill-test"
title = "interrupted run"
scenarios = ["GETSingle"]
[load]
model = "closed"
connections = 2
duration = "4s"
warmup = "0s"
[trials]
min = 2
max = 2
[partition]
postgresql = "0"
[[variant]]
name = "tcp"
baseline = true
[variant.postgrest]
db-uri = "tcp"
[[variant]]
name = "unix"
[variant.postgrest]
db-uri = "unix"
db-pool = 3
`

// TestRunInterruptedOrKilledLeavesOriginalConfig runs the real lab binary
// against a real stack, with the real PostgREST as systemd units and with
// postgrest-mini under the direct supervisor, stops it in the middle of a
// trial with SIGINT and with SIGKILL, and checks that the target's config
// is byte-identical to the original and the target serves: at once after
// SIGINT, and after the next start of the lab (here `lab restore`) after
// SIGKILL. PostgreSQL, pinned to CPU 0 by the run's [partition], runs on
// all its CPUs again. Each target and each supervisor once, as in
// TestDuetRunOnTheStack, not all four pairs: what is restored (the
// config file, PostgreSQL's CPUs) and how (the journal) is the
// supervisor's and the lab's, the same for either target, and the
// restart of a target on its old config is the supervisor's.
func TestRunInterruptedOrKilledLeavesOriginalConfig(t *testing.T) {
	t.Parallel() // structure, not an effect's size: see parallelTests
	if _, err := os.Stat("/usr/lib/postgresql"); err != nil && os.Getenv("LAB_PG_BINDIR") == "" {
		labtest.Need(t, "PostgreSQL: %v", err)
	}
	lab := buildLab(t)
	for _, tg := range labTargets(lab) {
		sup := systemd.ModeDirect
		if !tg.reference {
			sup = systemd.ModeSystemd
		}
		t.Run(tg.name+"/"+string(sup), func(t *testing.T) {
			if sup == systemd.ModeSystemd {
				labtest.RequireSystemd(t)
			}
			interruptedOrKilled(t, lab, append([]string{"--supervisor", string(sup)}, tg.flags(t)...))
		})
	}
}

func interruptedOrKilled(t *testing.T, lab string, targetArgs []string) {
	dir := labDir(t)
	t.Cleanup(func() {
		if s, err := stack.Open(dir); err == nil {
			_ = s.Down(context.Background(), true)
			s.Close()
		}
	})
	if out, err := exec.Command(lab, append([]string{"stack", "up", "--dir", dir}, targetArgs...)...).CombinedOutput(); err != nil {
		t.Fatalf("stack up: %v\n%s", err, out)
	}
	if out, err := exec.Command(lab, "fixture", "chinook", "--dir", dir).CombinedOutput(); err != nil {
		t.Fatalf("fixture: %v\n%s", err, out)
	}
	expFile := filepath.Join(t.TempDir(), "kill-test.toml")
	if err := os.WriteFile(expFile, []byte(killExperiment), 0o644); err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(dir, "postgrest.conf")
	original, err := os.ReadFile(conf)
	if err != nil {
		t.Fatal(err)
	}
	url := targetURL(t, dir)
	allCPUs := pgCPUs(t, dir)

	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			out := &lockedBuffer{}
			cmd := exec.Command(lab, "run", expFile, "--dir", dir, "--results", t.TempDir())
			cmd.Stdout, cmd.Stderr = out, out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			waitForUnixVariant(t, cmd, out, conf, 90*time.Second)
			if got := pgCPUs(t, dir); got != "0" {
				t.Errorf("during the run PostgreSQL may use CPUs %s, want 0 ([partition] postgresql)", got)
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			_ = cmd.Wait()
			if sig == syscall.SIGKILL {
				b, _ := os.ReadFile(conf)
				if bytes.Equal(b, original) {
					t.Fatal("after SIGKILL the config is already the original: the test proves nothing")
				}
				j, err := configs.OpenJournal(dir)
				if err != nil || len(j.Pending()) == 0 {
					t.Fatalf("no pending journal after SIGKILL (err %v)", err)
				}
				rout, err := exec.Command(lab, "restore", "--dir", dir).CombinedOutput()
				if err != nil || !strings.Contains(string(rout), "interrupted run") {
					t.Fatalf("lab restore: %v\n%s", err, rout)
				}
			} else if !strings.Contains(out.String(), "restoring the original configuration") {
				t.Errorf("SIGINT: no restore note in the output:\n%s", out.String())
			}
			b, err := os.ReadFile(conf)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(b, original) {
				t.Fatalf("config differs from the original after %v:\n--- original\n%s\n--- now\n%s\n--- lab output\n%s", sig, original, b, out.String())
			}
			if got := pgCPUs(t, dir); got != allCPUs {
				t.Errorf("after %v PostgreSQL may use CPUs %s, want %s as before the run", sig, got, allCPUs)
			}
			resp, err := http.Get(url + "/artist?artist_id=eq.3")
			if err != nil {
				t.Fatalf("target not serving after %v: %v", sig, err)
			}
			resp.Body.Close()
			if resp.StatusCode != 200 {
				t.Fatalf("target answered %d after %v", resp.StatusCode, sig)
			}
		})
	}
	// The runs kept their journal in the stack's dir: a purge leaves nothing.
	if out, err := exec.Command(lab, "stack", "down", "--dir", dir, "--purge").CombinedOutput(); err != nil {
		t.Fatalf("stack down --purge: %v\n%s", err, out)
	}
	if left, err := os.ReadDir(dir); !os.IsNotExist(err) {
		t.Fatalf("stack down --purge left %s behind: %v", dir, left)
	}
}

// pgCPUs is the CPU list PostgreSQL's main process may run on.
func pgCPUs(t *testing.T, dir string) string {
	t.Helper()
	st := stackStatus(t, dir)
	if st.Postgres.PID == 0 {
		t.Fatalf("PostgreSQL's pid: %+v", st.Postgres)
	}
	return labtest.ProcStatus(t, st.Postgres.PID, "Cpus_allowed_list")
}

func targetURL(t *testing.T, dir string) string {
	t.Helper()
	return stackStatus(t, dir).URL
}

// stackStatus is the status of the stack in dir.
func stackStatus(t *testing.T, dir string) stack.Status {
	t.Helper()
	s, err := stack.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	st, err := s.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return st
}
