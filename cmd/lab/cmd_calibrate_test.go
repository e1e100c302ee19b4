package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/calibrate"
	"github.com/pgrst-lab/pgrst-lab/lab/report"
)

// A tiny calibration on the real local stack (postgrest-mini, PostgreSQL,
// direct supervisor): one A/A run and one run with a 30 % injection, two
// 2-second rounds each. It asserts structure and plausibility, not
// sensitivity: the reports exist, the A' variant carried the injected
// work, and its server CPU per request rose.
func TestCalibrateTiny(t *testing.T) {
	dir := directStack(t)
	results := t.TempDir()
	out, err := runLab(t, "calibrate", "socket-vs-tcp", "--dir", dir, "--results", results, "--runs", "1", "--effects", "30",
		"--min-trials", "2", "--max-trials", "2", "--duration", "2s", "--warmup", "0s")
	if err != nil {
		t.Fatalf("calibrate: %v\n%s", err, out)
	}
	for _, want := range []string{"calibrate socket-vs-tcp: 2 runs (A/A ×1, 30% ×1)", "[1/2] A/A #1", "[2/2] 30% (", "so far: 30%: ", "declared a difference", "report: "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	reports, _ := filepath.Glob(filepath.Join(results, "calibrate", "socket-vs-tcp", "*"))
	if len(reports) != 1 {
		t.Fatalf("want one calibration directory, got %v", reports)
	}
	for _, f := range []string{"calibration.md", "calibration.html", "calibration.json"} {
		if st, err := os.Stat(filepath.Join(reports[0], f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(reports[0], "calibration.html")); !strings.Contains(string(b), "<svg") {
		t.Error("calibration.html has no chart")
	}
	var res struct {
		Rows     []calibrate.Row     `json:"rows"`
		Outcomes []calibrate.Outcome `json:"outcomes"`
	}
	b, _ := os.ReadFile(filepath.Join(reports[0], "calibration.json"))
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatalf("calibration.json: %v\n%s", err, b)
	}
	if len(res.Rows) != 2 || res.Rows[0].InjectUs != 0 || res.Rows[1].InjectUs <= 0 || res.Rows[0].Runs+res.Rows[1].Runs != 2 {
		t.Fatalf("rows %+v, want A/A and 30%% with one run each", res.Rows)
	}
	run, err := report.Load(filepath.Join(reports[0], res.Outcomes[1].Dir))
	if err != nil {
		t.Fatal(err)
	}
	if !run.Target.Reference {
		t.Errorf("target %+v, want the reference server", run.Target)
	}
	var injected bool
	for _, v := range run.Variants {
		for _, c := range v.Changes {
			injected = injected || (v.Name == calibrate.NamePrimed && c.Key == calibrate.InjectEnv && c.To != "")
		}
	}
	if !injected {
		t.Errorf("A' carried no %s change: %+v", calibrate.InjectEnv, run.Variants)
	}
	a, p := medianCPU(run, calibrate.NameA), medianCPU(run, calibrate.NamePrimed)
	t.Logf("server CPU per request: A %.0f µs, A' %.0f µs (%d µs injected)", a, p, res.Rows[1].InjectUs)
	if !(a > 0 && p > a) {
		t.Errorf("server CPU per request A %.0f µs, A' %.0f µs: want A' higher", a, p)
	}
}

func medianCPU(run *lab.Run, variant string) float64 {
	var vs []float64
	for _, t := range run.Trials {
		if t.Variant == variant && t.Error == "" {
			vs = append(vs, t.Server.CPUPerRequestUs)
		}
	}
	if len(vs) == 0 {
		return 0
	}
	slices.Sort(vs)
	return vs[len(vs)/2]
}
