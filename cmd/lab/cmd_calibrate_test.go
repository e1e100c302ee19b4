package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/internal/pgburn"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/calibrate"
	"github.com/pgrst-lab/pgrst-lab/lab/record"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// A tiny calibration on the real local stack (PostgreSQL, direct
// supervisor): one A/A run and one run with a 30 % injection, two 2-second
// rounds each; on postgrest-mini with its handler's injection (its
// default), and with the database injection (a pre-request function,
// --inject database) on real PostgREST. Not the database injection on
// postgrest-mini as well: it is the same pre-request function set by the
// same code, postgrest-mini's own tests hold that it calls db-pre-request,
// and --inject's defaults are calibrate.ParseInjection's unit test. It
// asserts structure and plausibility, not sensitivity: the reports exist,
// the A' variant carried the injected work, its CPU per request rose where
// the work was injected, and the pre-request functions are gone
// afterwards.
func TestCalibrateTiny(t *testing.T) {
	t.Parallel() // structure, not an effect's size: see parallelTests
	for _, tc := range []struct {
		name, inject string
		target       func(t *testing.T) []string
	}{
		{"mini/server", "", func(*testing.T) []string { return nil }},
		{"real/database", "database", func(t *testing.T) []string { return []string{"--postgrest", labtest.PostgREST(t)} }},
	} {
		t.Run(tc.name, func(t *testing.T) { calibrateTiny(t, tc.inject, tc.target(t)) })
	}
}

func calibrateTiny(t *testing.T, inject string, targetArgs []string) {
	dir := directStack(t, targetArgs...)
	results := t.TempDir()
	args := []string{"calibrate", "socket-vs-tcp", "--dir", dir, "--results", results, "--runs", "1", "--effects", "30",
		"--min-trials", "2", "--max-trials", "2", "--duration", "2s", "--warmup", "0s", "--min-rate", tinyRate, "--max-rate", tinyRate}
	if inject != "" {
		args = append(args, "--inject", inject)
	}
	out, err := runLab(t, args...)
	if err != nil {
		t.Fatalf("calibrate: %v\n%s", err, out)
	}
	for _, want := range []string{"calibrate socket-vs-tcp: 3 runs (A/A ×1, 30% ×1, a sizing probe)", "[1/3] A/A #1", "[2/3] probe 30% (",
		"sized by a probe: 30% (", "[3/3] 30% (", "so far: 30%: ", "declared a difference", "report: "} {
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
	var res calibrate.Result
	b, _ := os.ReadFile(filepath.Join(reports[0], "calibration.json"))
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatalf("calibration.json: %v\n%s", err, b)
	}
	if len(res.Rows) != 2 || res.Rows[0].InjectUs != 0 || res.Rows[1].InjectUs <= 0 || res.Rows[0].Runs+res.Rows[1].Runs != 2 {
		t.Fatalf("rows %+v, want A/A and 30%% with one run each (the probe not counted)", res.Rows)
	}
	// The probe ran first, and the counted 30 % run carries its correction;
	// after it, the sizing is refitted from both (calibrate.Refit).
	if s := res.Sizing; s == nil || s.EffectPct != 30 || s.InjectUs <= 0 || s.Scale < calibrate.MinScale || s.Scale > calibrate.MaxScale ||
		res.Baseline.Scale != s.Scale || !(s.RealisedPct > 0) {
		t.Fatalf("sizing %+v (baseline scale %v): want a probe at 30%% and its scale", res.Sizing, res.Baseline.Scale)
	} else {
		probe := res.Baseline // the probe's own correction, as SizeFrom made it
		probe.Scale = calibrate.SizeFrom(calibrate.Outcome{EffectPct: s.EffectPct, InjectUs: s.InjectUs, DeltaPct: s.RealisedPct}, -1).Scale
		if want := calibrate.InjectUs(30, probe); res.Rows[1].InjectUs != want {
			t.Errorf("the 30%% run injected %d µs, want %d (the probe's %d µs × %.2f)", res.Rows[1].InjectUs, want, s.InjectUs, probe.Scale)
		}
		if res.Outcomes[1].Rounds > 0 && (s.FitRuns != 2 || !(s.UsPerPct > 0)) {
			t.Errorf("sizing %+v: want it refitted from the probe and the 30%% run", s)
		}
	}
	run, err := record.ReadDir(filepath.Join(reports[0], res.Outcomes[1].Dir))
	if err != nil {
		t.Fatal(err)
	}
	database := res.Injection == calibrate.InjectDatabase
	if want := inject == "database" || len(targetArgs) > 0; database != want {
		t.Fatalf("injection %q, want database %v", res.Injection, want)
	}
	if run.Target.Reference == (len(targetArgs) > 0) {
		t.Errorf("target %+v, want reference %v", run.Target, len(targetArgs) == 0)
	}
	var injected bool
	for _, v := range run.Variants {
		for _, c := range v.Changes {
			if database {
				injected = injected || (v.Name == calibrate.NamePrimed && c.Key == "db-pre-request" && c.To == pgburn.B)
			} else {
				injected = injected || (v.Name == calibrate.NamePrimed && c.Key == calibrate.InjectEnv && c.To != "")
			}
		}
	}
	if !injected {
		t.Errorf("A' carried no injection (%s): %+v", res.Injection, run.Variants)
	}
	a, p := medianCPU(run, calibrate.NameA, database), medianCPU(run, calibrate.NamePrimed, database)
	t.Logf("%s CPU per request: A %.0f µs, A' %.0f µs (%d µs injected, %s)", map[bool]string{false: "server", true: "database"}[database], a, p, res.Rows[1].InjectUs, res.Injection)
	if !(a > 0 && p > a) {
		t.Errorf("CPU per request A %.0f µs, A' %.0f µs: want A' higher", a, p)
	}
	if database {
		if res.BurnUsPerIteration <= 0 {
			t.Errorf("burn cost %v", res.BurnUsPerIteration)
		}
		if n := countSchema(t, dir, pgburn.Schema); n != 0 {
			t.Errorf("schema %s left behind", pgburn.Schema)
		}
	}
	mergeTiny(t, reports[0], results)
}

// mergeTiny pools the calibration in dir with a copy of it, as a series
// counted over two sessions would be, and refuses a part of another design.
func mergeTiny(t *testing.T, dir, results string) {
	t.Helper()
	twin := filepath.Join(t.TempDir(), "twin")
	if err := os.CopyFS(twin, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	out, err := runLab(t, "calibrate", "--merge", dir, twin, "--results", results)
	if err != nil {
		t.Fatalf("calibrate --merge: %v\n%s", err, out)
	}
	merged, _ := filepath.Glob(filepath.Join(results, "calibrate", "socket-vs-tcp", "*-merged"))
	if len(merged) != 1 || !strings.Contains(out, "socket-vs-tcp: 2 calibrations, 4 runs") {
		t.Fatalf("merged %v:\n%s", merged, out)
	}
	m, err := calibrate.ReadDir(merged[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Rows) != 2 || m.Rows[0].Runs != 2 || m.Rows[1].Runs != 2 || m.AARuns != 2 || len(m.Sources) != 2 {
		t.Fatalf("merged rows %+v, A/A runs %d, sources %d: want each count doubled", m.Rows, m.AARuns, len(m.Sources))
	}
	if _, err := record.ReadDir(m.Outcomes[3].Dir); err != nil {
		t.Errorf("a merged outcome's run is not where it says: %v", err)
	}
	if md, _ := os.ReadFile(filepath.Join(merged[0], "calibration.md")); !strings.Contains(string(md), "| Part 2 | ") {
		t.Errorf("calibration.md does not list the parts:\n%s", md)
	}
	// A part with another trials.max is another design.
	b, _ := os.ReadFile(filepath.Join(twin, calibrate.File))
	b = []byte(strings.Replace(string(b), `"max": 2,`, `"max": 3,`, 1))
	if err := os.WriteFile(filepath.Join(twin, calibrate.File), b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err = runLab(t, "calibrate", "--merge", dir, twin, "--results", results)
	if err == nil || !strings.Contains(out+err.Error(), "trials.max is 2 there and 3 here") {
		t.Errorf("merging another design: %v\n%s", err, out)
	}
}

// medianCPU is a variant's median server (or database) CPU per request.
func medianCPU(run *lab.Run, variant string, database bool) float64 {
	var vs []float64
	for _, t := range run.Trials {
		if t.Variant == variant && t.Error == "" {
			if database {
				vs = append(vs, t.Database.CPUPerRequestUs)
			} else {
				vs = append(vs, t.Server.CPUPerRequestUs)
			}
		}
	}
	return stats.Median(vs)
}

// countSchema counts the schemas named name in the stack's database.
func countSchema(t *testing.T, dir, name string) int {
	t.Helper()
	return labtest.QueryValue[int](t, stackStatus(t, dir).AdminURI, "SELECT count(*) FROM pg_namespace WHERE nspname = $1", name)
}
