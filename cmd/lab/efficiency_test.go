package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report"
)

const efficiencyExperiment = `name = "efficiency-tiny"
scenarios = ["GETSingle"]
[load]
model = "efficiency"
utilisation = 0.5
duration = "1s"
warmup = "0s"
[trials]
min = 2
max = 2
[[variant]]
name = "tcp"
baseline = true
postgrest = { db-uri = "tcp" }
[[variant]]
name = "unix"
postgrest = { db-uri = "unix" }
`

// Efficiency mode on the real local stack: a capacity search on the
// baseline, then open-model trials at half of it, with machine CPU split
// per trial and CPU per request as the headline.
func TestEfficiencyRunTiny(t *testing.T) {
	out, resultDir := runExperiment(t, directStack(t), "efficiency-tiny", efficiencyExperiment)
	for _, want := range []string{"efficiency: GETSingle capacity", "capacity GETSingle: tcp found", "Verdict (server + database CPU):"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	run, err := report.Load(resultDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Capacity) != 1 || !(run.Capacity[0].Found > 0) || math.Abs(run.Capacity[0].Rate-run.Capacity[0].Found/2) > 1e-6 {
		t.Fatalf("capacity %+v", run.Capacity)
	}
	for _, tr := range run.Trials {
		if tr.Load.Model != lab.ModelOpen || math.Abs(tr.Load.AskedRate-run.Capacity[0].Rate) > 1 {
			t.Errorf("trial %d: %s at %.0f req/s, want open at %.0f", tr.Seq, tr.Load.Model, tr.Load.AskedRate, run.Capacity[0].Rate)
		}
		if in := tr.Interference; in == nil || !(in.Machine > 0) || !(in.Server > 0) || in.Other < 0 {
			t.Errorf("trial %d: interference %+v, want the machine's CPU split", tr.Seq, in)
		}
	}
	var v struct {
		Rows []struct {
			Metric, Test string
			MDE          *float64 `json:"mde_pct"`
		} `json:"rows"`
	}
	b, _ := os.ReadFile(filepath.Join(resultDir, "verdicts.json"))
	if err := json.Unmarshal(b, &v); err != nil || len(v.Rows) == 0 {
		t.Fatalf("verdicts.json: %v", err)
	}
	var cpu bool
	for _, r := range v.Rows {
		cpu = cpu || (r.Metric == "cpu" && r.Test != "")
	}
	if !cpu {
		t.Errorf("verdicts.json has no tested cpu row: %s", b)
	}
}
