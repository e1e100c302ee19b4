package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/internal/runas"
)

// unprivilegedExperiment is two short variants: enough for a verdict table.
const unprivilegedExperiment = `
name = "laptop"
title = "a run without root"
scenarios = ["GETSingle"]
[load]
model = "closed"
connections = 2
duration = "1s"
warmup = "0s"
[trials]
min = 2
max = 2
[[variant]]
name = "tcp"
baseline = true
[variant.postgrest]
db-uri = "tcp"
[[variant]]
name = "unix"
[variant.postgrest]
db-uri = "unix"
`

// TestRunWithoutRoot runs the lab as a user with no privileges and no
// systemd (the direct supervisor), as on a laptop: stack up, the Chinook
// fixture and a run of two variants against the real PostgREST, all in a
// directory of that user's; the target runs as that user too.
func TestRunWithoutRoot(t *testing.T) {
	t.Parallel() // structure, not an effect's size: see parallelTests
	if os.Geteuid() != 0 {
		t.Skip("needs root to become an unprivileged user for the test")
	}
	if _, err := os.Stat("/usr/lib/postgresql"); err != nil && os.Getenv("LAB_PG_BINDIR") == "" {
		labtest.Need(t, "PostgreSQL: %v", err)
	}
	pgrst := labtest.PostgREST(t)
	lab := buildLab(t)
	nobody, err := runas.Lookup("nobody")
	if err != nil {
		labtest.Need(t, "an unprivileged user: %v", err)
	}
	home, err := os.MkdirTemp("", "laptop-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(home) })
	// Its own copies, in its own directory: as a user would have them.
	labBin := labtest.CopyExecutable(t, lab, filepath.Join(home, "bin", "lab"))
	pgrstBin := labtest.CopyExecutable(t, pgrst, filepath.Join(home, "bin", "postgrest"))
	exp := filepath.Join(home, "laptop.toml")
	if err := os.WriteFile(exp, []byte(unprivilegedExperiment), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := filepath.Walk(home, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, nobody.UID, nobody.GID)
	}); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(home, ".lab")
	asNobody := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(labBin, args...)
		cmd.Dir = home
		cmd.Env = []string{"HOME=" + home, "PATH=/usr/local/bin:/usr/bin:/bin", "LAB_SUPERVISOR=direct", "TMPDIR=" + home}
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(nobody.UID), Gid: uint32(nobody.GID)}}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("lab %s as %s: %v\n%s", strings.Join(args, " "), nobody.Name, err, out)
		}
		return string(out)
	}
	t.Cleanup(func() {
		cmd := exec.Command(labBin, "stack", "down", "--purge", "--dir", dir)
		cmd.Env = []string{"HOME=" + home, "PATH=/usr/local/bin:/usr/bin:/bin"}
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(nobody.UID), Gid: uint32(nobody.GID)}}
		_ = cmd.Run()
	})
	out := asNobody("stack", "up", "--dir", dir, "--postgrest", pgrstBin)
	if !strings.Contains(out, "as "+nobody.Name) {
		t.Errorf("stack up does not say the target runs as %s:\n%s", nobody.Name, out)
	}
	asNobody("fixture", "chinook", "--dir", dir)
	results := filepath.Join(home, "results")
	out = asNobody("run", exp, "--dir", dir, "--results", results)
	var reports []string
	_ = filepath.Walk(results, func(p string, fi os.FileInfo, err error) error {
		if err == nil && fi.Name() == "report.md" {
			reports = append(reports, p)
		}
		return nil
	})
	if len(reports) != 1 {
		t.Fatalf("want one report.md under %s, have %v; the run said:\n%s", results, reports, out)
	}
	b, err := os.ReadFile(reports[0])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "unix") || !strings.Contains(string(b), "tcp") {
		t.Errorf("the report does not compare unix with tcp:\n%s", b)
	}
	// lab ab too (issue 52): probes and targets as the user itself, binaries
	// of its own, no store of root's.
	out = asNobody("ab", "a="+pgrstBin, "b="+pgrstBin, "GETSingle", "--dir", dir, "--results", filepath.Join(home, "ab"),
		"--min-trials", "2", "--max-trials", "2", "--duration", "1s", "--warmup", "0s")
	if !strings.Contains(out, "Verdict") {
		t.Errorf("lab ab as %s printed no verdict:\n%s", nobody.Name, out)
	}
}
