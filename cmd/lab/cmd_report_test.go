package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab/record"
	"github.com/pgrst-lab/pgrst-lab/lab/stats/statstest"
)

// resultDir writes a synthetic run as dir/run.json, as `lab run` does.
func resultDir(t *testing.T, dir string, unixRate float64, seed uint64, started time.Time) string {
	t.Helper()
	run := statstest.Run(statstest.Spec{
		Experiment: "socket-vs-tcp", Scenarios: []string{"GETSingle"}, Trials: 6, Noise: 0.02, Seed: seed, Detail: true,
		Variants: []statstest.Variant{
			{Name: "tcp", Baseline: true, Rate: 2400, P50Ms: 4, ServerUs: 450, DBUs: 330, RSSMB: 60},
			{Name: "unix", Rate: unixRate, P50Ms: 4 * 2400 / unixRate, ServerUs: 420, DBUs: 300, RSSMB: 60},
		},
	})
	shift := started.Sub(run.Started)
	run.Started, run.Finished = run.Started.Add(shift), run.Finished.Add(shift)
	for i := range run.Trials {
		run.Trials[i].Start = run.Trials[i].Start.Add(shift)
	}
	if err := record.Write(dir, run); err != nil {
		t.Fatal(err)
	}
	return dir
}

func reportLab(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), args, &out, &errb)
	return out.String(), errb.String(), err
}

func TestReportCommand(t *testing.T) {
	dir := resultDir(t, t.TempDir(), 2600, 1, statstest.Start)
	out, _, err := reportLab(t, "report", dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"GETSingle: unix vs tcp", "throughput (req/s)", "better", "not PostgREST"} {
		if !strings.Contains(out, want) {
			t.Errorf("terminal output lacks %q:\n%s", want, out)
		}
	}
	out, _, err = reportLab(t, "report", dir, "--format", "md")
	if err != nil || !strings.Contains(out, "## Verdict") || !strings.Contains(out, "| throughput (req/s) |") {
		t.Errorf("md: %v\n%s", err, out)
	}
	out, _, err = reportLab(t, "report", "--format=json", dir)
	var v map[string]any
	if err != nil || json.Unmarshal([]byte(out), &v) != nil || v["baseline"] != "tcp" {
		t.Errorf("json: %v\n%.300s", err, out)
	}
	if _, errOut, err := reportLab(t, "report", dir, "--write"); err != nil || !strings.Contains(errOut, "report.html") {
		t.Errorf("--write: %v %q", err, errOut)
	}
	for _, f := range []string{"report.md", "report.html", "verdicts.json", "results.bench", "trials.csv", "telemetry.csv"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("--write: %v", err)
		}
	}
}

func TestReportCommandErrors(t *testing.T) {
	dir := resultDir(t, t.TempDir(), 2600, 1, statstest.Start)
	for _, c := range []struct {
		args []string
		want string
		code int
	}{
		{[]string{"report"}, "want one result directory", 2},
		{[]string{"report", dir, "--format", "pdf"}, `--format "pdf": allowed values are terminal, md, html, json, bench`, 2},
		{[]string{"report", dir, "--alpha", "2"}, "--alpha 2", 2},
		{[]string{"report", filepath.Join(dir, "nope")}, "nope/run.json", 1},
		{[]string{"compare", dir}, "want two result directories", 2},
		{[]string{"history"}, "want one experiment name", 2},
		{[]string{"history", "--results", dir, "nothing"}, "history:", 1},
	} {
		_, _, err := reportLab(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) || exitCode(err) != c.code {
			t.Errorf("lab %s: got %v (exit %d), want %q (exit %d)", strings.Join(c.args, " "), err, exitCode(err), c.want, c.code)
		}
	}
}

func TestCompareCommand(t *testing.T) {
	a := resultDir(t, filepath.Join(t.TempDir(), "a"), 2600, 1, statstest.Start)
	b := resultDir(t, filepath.Join(t.TempDir(), "b"), 2900, 2, statstest.Start.Add(24*time.Hour)) // unix faster in B
	out, _, err := reportLab(t, "compare", a, b)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"A is the baseline", "GETSingle: unix (B) vs unix (A)", "GETSingle: tcp (B) vs tcp (A)"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// unix got faster (+11.5%), tcp did not change.
	if !strings.Contains(out, "GETSingle: unix (B) vs unix (A): +") || !strings.Contains(out, "GETSingle: tcp (B) vs tcp (A): no significant difference") {
		t.Errorf("verdicts wrong:\n%s", out)
	}
	if out, _, err := reportLab(t, "compare", "--format", "md", a, b); err != nil || !strings.Contains(out, "## Verdict") {
		t.Errorf("md: %v\n%s", err, out)
	}
}
