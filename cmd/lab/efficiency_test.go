package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/record"
)

const efficiencyExperiment = `name = "efficiency-tiny"
scenarios = ["GETSingle"]
[load]
model = "efficiency"
utilisation = 0.5
duration = "1s"
warmup = "0s"
[trials]
min = 5
max = 5
[[variant]]
name = "tcp"
baseline = true
postgrest = { db-uri = "tcp" }
[[variant]]
name = "unix"
postgrest = { db-uri = "unix" }
`

// Efficiency mode on the real local stack, on the real PostgREST and on
// the reference server: a capacity search on the baseline, then
// open-model trials at half of it, with machine CPU split per trial, the
// machine's speed reference in every trial, and CPU per request as the
// headline, adjusted for that speed.
func TestEfficiencyRunTiny(t *testing.T) {
	t.Parallel() // structure, not an effect's size: see parallelTests
	for _, tg := range labTargets("") {
		t.Run(tg.name, func(t *testing.T) { efficiencyRunTiny(t, directStack(t, tg.flags(t)...)) })
	}
}

func efficiencyRunTiny(t *testing.T, dir string) {
	out, resultDir := runExperiment(t, dir, "efficiency-tiny", efficiencyExperiment)
	for _, want := range []string{"efficiency: GETSingle capacity", "capacity GETSingle (tcp): open ", "; closed with 10 connections ", "machine  the load generator used ", "Verdict (server + database CPU):", "(speed-adjusted: unadjusted p="} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	run, err := record.ReadDir(resultDir)
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
		// A chase of 10,000 loads: microseconds to tens of milliseconds.
		if tr.SpeedRefNs < 1e4 || tr.SpeedRefNs > 1e8 {
			t.Errorf("trial %d: speed reference %.0f ns, want a measured chase", tr.Seq, tr.SpeedRefNs)
		}
	}
	var v struct {
		Rows []struct {
			Metric, Test string
			MDE          *float64 `json:"mde_pct"`
			Paired       *struct {
				Speed *struct {
					Beta float64 `json:"beta"`
					RawP float64 `json:"raw_p"`
				} `json:"speed_adjustment"`
			} `json:"paired"`
		} `json:"rows"`
	}
	b, _ := os.ReadFile(filepath.Join(resultDir, "verdicts.json"))
	if err := json.Unmarshal(b, &v); err != nil || len(v.Rows) == 0 {
		t.Fatalf("verdicts.json: %v", err)
	}
	var cpu, ref bool
	for _, r := range v.Rows {
		if r.Metric == "cpu" && r.Test != "" {
			cpu = true
			// 5 rounds: the reference's own signed-rank p is >= 2/32, so
			// it can never count as moved, and the verdict is adjusted.
			if r.Paired == nil || r.Paired.Speed == nil || !(r.Paired.Speed.RawP > 0) {
				t.Errorf("cpu row not speed-adjusted: %s", b)
			}
		}
		ref = ref || r.Metric == lab.SpeedRefMetric
	}
	if !cpu || !ref {
		t.Errorf("verdicts.json lacks a tested cpu row (%v) or the speed reference's row (%v): %s", cpu, ref, b)
	}
}
