package stats_test

import (
	"math"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
	"github.com/pgrst-lab/pgrst-lab/lab/stats/statstest"
)

// speedRun is an efficiency run whose trials vary with the machine's speed
// (5 % per trial, as measured on the 2-core VMs) on top of 1.5 %
// independent noise; the variant costs effect more CPU per request.
func speedRun(effect float64, rounds int, seed uint64) *lab.Run {
	run := statstest.Run(statstest.Spec{
		Experiment: "speed", Scenarios: []string{"GETSingle"}, Trials: rounds, Noise: 0.015, Speed: 0.05, Seed: seed,
		Variants: []statstest.Variant{
			{Name: "a", Baseline: true, Rate: 5000, P50Ms: 1, ServerUs: 100, DBUs: 110, RSSMB: 40},
			{Name: "b", Rate: 5000, P50Ms: 1, ServerUs: 100 * (1 + effect), DBUs: 110 * (1 + effect), RSSMB: 40},
		},
	})
	run.Experiment.Load.Model = lab.ModelEfficiency
	return run
}

func withAdjust(run *lab.Run, on bool) *lab.Run {
	run.Experiment.Trials.SpeedAdjust = &on
	return run
}

// With the machine's speed in the noise, adjusting for the reference finds
// a 3 % change the raw ratios miss, and reports the raw figures next to it.
func TestSpeedAdjustmentFindsWhatRawMisses(t *testing.T) {
	const runs = 200
	adj, raw, unsure := 0, 0, 0
	var beta, mdeAdj, mdeRaw float64
	for seed := uint64(1); seed <= runs; seed++ {
		r := stats.Compare(withAdjust(speedRun(0.03, 16, seed), true), 0).Headlines()[0]
		if r.Paired == nil {
			t.Fatalf("seed %d: headline not paired", seed)
		}
		if r.Significant && r.Outcome == stats.Worse {
			adj++
		}
		if r.Paired.Speed == nil { // the reference differed by chance: judged raw and adjusted
			unsure++
			continue
		}
		beta += r.Paired.Speed.Beta
		mdeAdj += r.MDEPct
		rr := stats.Compare(withAdjust(speedRun(0.03, 16, seed), false), 0).Headlines()[0]
		if rr.Paired.Speed != nil {
			t.Fatal("speed_adjust = false: adjusted anyway")
		}
		if rr.Significant && rr.Outcome == stats.Worse {
			raw++
		}
		mdeRaw += rr.MDEPct
	}
	n := float64(runs - unsure) // the means are over the adjusted runs
	beta, mdeAdj, mdeRaw = beta/n, mdeAdj/n, mdeRaw/n
	t.Logf("+3%%, 16 rounds, 5%% speed noise: adjusted %d/%d (MDE ±%.1f%%, beta %.2f; %d judged both ways), raw %d/%d (MDE ±%.1f%%)",
		adj, runs, mdeAdj, beta, unsure, raw, runs, mdeRaw)
	if adj < runs*80/100 || raw >= adj {
		t.Errorf("detected adjusted %d, raw %d of %d: want adjusted >= 80%% and above raw", adj, raw, runs)
	}
	if math.Abs(beta-1) > 0.15 {
		t.Errorf("mean beta %.2f, want ~1 (the CPU follows the reference one to one)", beta)
	}
}

// A/A with adaptive stopping: the adjusted verdict keeps the
// false-positive rate at alpha (the slope is fitted on the same rounds).
func TestSpeedAdjustedAAFalsePositiveRate(t *testing.T) {
	runs := 2000
	if testing.Short() {
		runs = 400
	}
	fp, adjusted := 0, 0
	for seed := uint64(1); seed <= uint64(runs); seed++ {
		r, _ := adaptive(speedRun(0, 24, 100000+seed), 6, 24, seqTrials("", true))
		if r.Significant {
			fp++
		}
		if r.Paired != nil && r.Paired.Speed != nil {
			adjusted++
		}
	}
	rate := float64(fp) / float64(runs)
	t.Logf("A/A, looks 6..24, speed-adjusted: false positives %d of %d (%.2f%%)", fp, runs, 100*rate)
	if adjusted < runs*9/10 {
		t.Errorf("only %d of %d runs adjusted", adjusted, runs)
	}
	if rate > 0.05 {
		t.Errorf("false-positive rate %.2f%%, want <= 5%%", 100*rate)
	}
}

// A variant that moves the reference is judged on CPU both adjusted and
// unadjusted while that could be chance (adjusting could turn its effect
// around), and only unadjusted once it cannot be: the reference's own row
// shows it.
func TestSpeedReferenceThatMoves(t *testing.T) {
	moved := func(effect float64, rounds int) *lab.Run {
		run := withAdjust(speedRun(effect, rounds, 7), true)
		for i := range run.Trials {
			if run.Trials[i].Variant == "b" {
				run.Trials[i].SpeedRefNs *= 1.2
			}
		}
		return run
	}
	hasWarning := func(r stats.Row, s string) bool {
		for _, w := range r.Warnings {
			if strings.Contains(w, s) {
				return true
			}
		}
		return false
	}
	v := stats.Compare(moved(0.03, 12), 0)
	r := v.Headlines()[0]
	// Adjusted, the +3 % looks like -15 %: the two disagree, no verdict.
	if r.Paired == nil || r.Paired.Speed != nil || r.Significant || !hasWarning(r, "by chance or by the variant: server CPU (adjusted: -1") ||
		!hasWarning(r, "and server + database CPU (adjusted: -1") || !hasWarning(r, "count as changed only if both unadjusted and adjusted agree") {
		t.Errorf("12 rounds (p of the reference >= 2^-11): want no verdict and a warning, got significant=%v %+v %q", r.Significant, r.Paired, r.Warnings)
	}
	// Said once: the three CPU rows carry the same warning, which a report
	// lists once.
	for _, m := range []string{"server_cpu", "db_cpu"} {
		if o := rowOf(v, m); o == nil || len(o.Warnings) == 0 || o.Warnings[0] != r.Warnings[0] {
			t.Errorf("%s: warnings %q, want the headline's %q", m, o.Warnings, r.Warnings[0])
		}
	}
	// A change far beyond the machine's speed is found both ways, and
	// the reference's move goes unsaid: it changes no verdict.
	r = stats.Compare(moved(0.60, 12), 0).Headlines()[0]
	if !r.Significant || r.Outcome != stats.Worse || r.Paired.ChangePct < 40 || hasWarning(r, "speed reference") {
		t.Errorf("12 rounds, +60%%: want worse, judged both ways, without a speed warning, got %s significant=%v %+v %q", r.Outcome, r.Significant, r.Paired, r.Warnings)
	}
	if ref := rowOf(v, "speed_ref"); ref == nil || !ref.Significant {
		t.Errorf("speed_ref row %+v: want a significant change", ref)
	}
	r = stats.Compare(moved(0.10, 20), 0).Headlines()[0]
	if r.Paired == nil || r.Paired.Speed != nil || !r.Significant || r.Outcome != stats.Worse || !hasWarning(r, "compared unadjusted") {
		t.Errorf("20 rounds: want the raw +10%% found worse, got %s significant=%v %+v %q", r.Outcome, r.Significant, r.Paired, r.Warnings)
	}
}

// Trials without a reference (older records, agents of older versions)
// are compared raw, as before.
func TestNoSpeedReferenceNoAdjustment(t *testing.T) {
	run := speedRun(0.03, 12, 8)
	for i := range run.Trials {
		run.Trials[i].SpeedRefNs = 0
	}
	v := stats.Compare(run, 0)
	if r := v.Headlines()[0]; r.Paired == nil || r.Paired.Speed != nil {
		t.Fatalf("adjusted without a reference: %+v", r.Paired)
	}
	if strings.Contains(v.Method(), "speed") {
		t.Errorf("method %q mentions the speed adjustment", v.Method())
	}
}

func rowOf(v *stats.Verdicts, metric string) *stats.Row {
	for i := range v.Rows {
		if v.Rows[i].Metric.Name == metric {
			return &v.Rows[i]
		}
	}
	return nil
}
