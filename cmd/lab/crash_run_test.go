package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
)

// crashExperiment has a variant whose GHC heap limit (4 MB) the real
// PostgREST exhausts within a second of GETAllEmbed: every one of its
// trials crashes, in the warm-up or in the window.
const crashExperiment = `name = "heap-crash"
title = "a variant whose heap is exhausted"
scenarios = ["GETAllEmbed"]
[load]
model = "closed"
connections = 8
duration = "2s"
warmup = "1s"
[trials]
min = 2
max = 2
interference = 1
[[variant]]
name = "base"
baseline = true
[[variant]]
name = "m4"
args = ["+RTS", "-M4m", "-RTS"]
`

// TestRunWithACrashingVariantFails runs the real lab binary on a real
// stack of the real PostgREST (direct supervisor, brought up by another
// lab process, as a user does): a variant that exhausts its heap is
// reported as crashed with "Heap exhausted" (console, report.md,
// run.json), never as a figure, and the run exits non-zero with a
// one-line reason. Before, it exited 0 with "no significant difference"
// and the crashed trials' refused connections counted as throughput.
func TestRunWithACrashingVariantFails(t *testing.T) {
	t.Parallel() // structure, not an effect's size: see parallelTests
	lab := buildLab(t)
	dir := directStack(t, "--postgrest", labtest.PostgREST(t))
	if out, err := exec.Command(lab, "fixture", "chinook", "--dir", dir).CombinedOutput(); err != nil {
		t.Fatalf("fixture: %v\n%s", err, out)
	}
	exp := filepath.Join(t.TempDir(), "heap-crash.toml")
	if err := os.WriteFile(exp, []byte(crashExperiment), 0o644); err != nil {
		t.Fatal(err)
	}
	results := t.TempDir()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(lab, "run", exp, "--dir", dir, "--results", results)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	out := stdout.String()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() == 0 {
		t.Fatalf("lab run: %v, want a non-zero exit\n%s\nstderr:\n%s", err, out, stderr.String())
	}
	var reason []string
	for _, line := range strings.Split(stderr.String(), "\n") {
		if strings.HasPrefix(line, "lab: ") {
			reason = append(reason, line)
		}
	}
	if len(reason) != 1 || !strings.HasPrefix(reason[0], "lab: no valid trial: variant m4 on GETAllEmbed: all ") ||
		!strings.Contains(reason[0], "crash: ") || !strings.Contains(reason[0], "Heap exhausted") {
		t.Errorf("exit %d; want one line saying m4 has no valid trial as it crashed with Heap exhausted, stderr:\n%s", ee.ExitCode(), stderr.String())
	}
	if !strings.Contains(out, "FAILED: crash") || !strings.Contains(out, "GETAllEmbed: m4 vs base: no verdict, no valid trial of m4") ||
		strings.Contains(out, "no significant difference") {
		t.Errorf("console: want m4's trials FAILED as crashes and no verdict, not a comparison:\n%s", out)
	}

	rdir, run := onlyRun(t, filepath.Join(results, "heap-crash"))
	var m4, base int
	for _, tr := range run.Trials {
		switch {
		case tr.Variant == "m4":
			m4++
			if !strings.HasPrefix(tr.Error, "crash: ") || !strings.Contains(tr.Error, "Heap exhausted") {
				t.Errorf("m4's trial %d: error %q, want a crash with Heap exhausted", tr.Seq, tr.Error)
			}
		case tr.Error == "":
			base++
			if tr.Load.Rate <= 0 || tr.Load.Errors != 0 {
				t.Errorf("base's trial %d: %.1f req/s, %d errors", tr.Seq, tr.Load.Rate, tr.Load.Errors)
			}
		}
	}
	if m4 < 2 || base != 2 {
		t.Errorf("%d m4 trials (want 2 and their repeats), %d valid base trials (want 2)", m4, base)
	}
	md, err := os.ReadFile(filepath.Join(rdir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"**crash**", "Heap exhausted", "**failed trial** (variant m4", "no valid trial of m4"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md lacks %q:\n%s", want, md)
		}
	}
	t.Logf("%s", reason)
}
