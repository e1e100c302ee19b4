package stats_test

import (
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
	"github.com/pgrst-lab/pgrst-lab/lab/stats/statstest"
)

var poolSweep = statstest.PoolSweep

func recommend(t *testing.T, run *lab.Run) stats.Recommendation {
	t.Helper()
	v := stats.Compare(run, 0)
	if v.Sweep == nil || len(v.Sweep.Scenarios) != 1 {
		t.Fatalf("sweep result %+v", v.Sweep)
	}
	sc := v.Sweep.Scenarios[0]
	if len(sc.Points) != 6 {
		t.Fatalf("%d points, want 6", len(sc.Points))
	}
	for _, p := range sc.Points {
		for _, m := range stats.SweepMetrics {
			if s, ok := p.Metrics[m]; !ok || !(s.Lo <= s.Median && s.Median <= s.Hi) {
				t.Errorf("%s %s: %+v", p.Variant, m, s)
			}
		}
	}
	return sc.Recommendation
}

func TestRecommendKnownOptimum(t *testing.T) {
	r := recommend(t, poolSweep([]float64{1000, 1600, 2000, 2400, 2000, 1800}, 0.02, 1, ""))
	if r.Best != "db-pool=10" || r.Cheapest != "db-pool=10" || r.CannotTell || r.VsBest != nil {
		t.Fatalf("recommendation %+v", r)
	}
	if r.Below == nil || r.Below.VariantName != "db-pool=5" || !r.Below.Significant {
		t.Fatalf("below: %+v", r.Below)
	}
	want := "db-pool 10 is the best on throughput; below 10 (at 5) throughput drops 1"
	if !strings.HasPrefix(r.Sentence, want) {
		t.Errorf("sentence %q\nwant prefix %q", r.Sentence, want)
	}
}

// On a plateau the cheapest value of it is recommended, with the test
// against the best and what the step below costs.
func TestRecommendPlateau(t *testing.T) {
	r := recommend(t, poolSweep([]float64{1000, 1500, 2400, 2410, 2405, 2400}, 0.02, 2, ""))
	if r.Cheapest != "db-pool=5" || r.CannotTell {
		t.Fatalf("recommendation %+v", r)
	}
	if r.VsBest == nil || r.VsBest.Significant || r.VsBest.BaselineName != r.Best || r.VsBest.P <= 0.05 {
		t.Fatalf("vs best: %+v", r.VsBest)
	}
	if r.Below == nil || r.Below.VariantName != "db-pool=2" || r.Below.DeltaPct > -30 {
		t.Fatalf("below: %+v", r.Below)
	}
	for _, part := range []string{"db-pool 5 is within ", " of the best (", ") at p = ", "the run could detect ±", "; below 5 (at 2) throughput drops 3"} {
		if !strings.Contains(r.Sentence, part) {
			t.Errorf("sentence %q lacks %q", r.Sentence, part)
		}
	}
}

// A cliff: every pool from 2 up is as good, 1 loses three quarters.
// Declared cost order descending (a larger pool is cheaper, say, for the
// queueing it spares), the cheapest is 50 and nothing is "below" it.
func TestRecommendCliff(t *testing.T) {
	rates := []float64{600, 2400, 2400, 2400, 2400, 2400}
	r := recommend(t, poolSweep(rates, 0.02, 3, ""))
	if r.Cheapest != "db-pool=2" || r.Below == nil || r.Below.VariantName != "db-pool=1" {
		t.Fatalf("recommendation %+v", r)
	}
	if !strings.Contains(r.Sentence, "below 2 (at 1) throughput drops 75 %") {
		t.Errorf("sentence %q", r.Sentence)
	}
	r = recommend(t, poolSweep(rates, 0.02, 3, lab.CheapestDescending))
	if r.Cheapest != "db-pool=50" || r.Below != nil || !strings.HasSuffix(r.Sentence, "it is the cheapest value swept") {
		t.Fatalf("descending: %+v", r)
	}
}

// Noise only: no value differs from the best, and the recommendation says
// it cannot tell instead of naming a value.
func TestRecommendNoiseOnly(t *testing.T) {
	for seed := uint64(1); seed <= 8; seed++ {
		r := recommend(t, poolSweep([]float64{2400, 2400, 2400, 2400, 2400, 2400}, 0.03, seed, ""))
		if !r.CannotTell || r.Cheapest != "" || !strings.HasPrefix(r.Sentence, "cannot tell: no db-pool value differs from the baseline (10)") ||
			!strings.Contains(r.Sentence, "could not be detected") {
			t.Errorf("seed %d: %+v", seed, r)
		}
	}
}

// A change the test calls significant but smaller than the run's MDE (a
// very noisy machine) does not make a recommendation; the sentence says
// what was seen, so that it does not contradict the verdicts.
func TestRecommendSignificantBelowMDE(t *testing.T) {
	rate, _ := lab.MetricByName("rate")
	axes := []lab.SweepAxis{{Key: "postgrest.db-pool"}}
	var points []stats.SweepPointResult
	for i, v := range []string{"1", "10", "50"} {
		points = append(points, stats.SweepPointResult{Variant: "db-pool=" + v, Values: []string{v},
			Metrics: map[string]stats.Summary{"rate": {Median: []float64{60, 240, 290}[i], N: 6}}})
	}
	compare := func(base, other string) stats.Row {
		r := stats.Row{BaselineName: base, VariantName: other, P: 0.4, MDEPct: 130, DeltaPct: 10}
		if other == "db-pool=1" || base == "db-pool=1" {
			r.Significant, r.P, r.DeltaPct = true, 0.031, -74
		}
		return r
	}
	r := stats.Recommend(points, rate, axes, "db-pool=10", compare)
	want := "cannot tell: no db-pool value differs from the baseline (10) on throughput beyond the noise " +
		"(changes under ±130.0% could not be detected); db-pool 1 changed it -74 % (p = 0.031), less than the ±130% this run could detect; " +
		"keep what you have, or measure more rounds"
	if !r.CannotTell || r.Sentence != want || r.Best != "db-pool=50" {
		t.Errorf("got %+v\nwant sentence %q", r, want)
	}
	// The same change above the MDE is a difference: the recommendation
	// is then the cheapest value as good as the best.
	compare2 := func(base, other string) stats.Row {
		r := compare(base, other)
		r.MDEPct = 20
		return r
	}
	r = stats.Recommend(points, rate, axes, "db-pool=10", compare2)
	if r.CannotTell || r.Cheapest != "db-pool=10" || r.Below == nil || r.Below.VariantName != "db-pool=1" {
		t.Errorf("above the MDE: %+v", r)
	}
}

// A value that fails requests is never recommended, however good its
// headline: its latency is the answers that worked. Here db-pool 1 and 2
// fail a third of their requests fast, so the answers that worked are the
// quickest of the sweep (p99 a quarter of the others'); the recommendation
// skips them, names them with their failure share, and the table gains an
// errors column. The headline is p99 (the open model's), also tabled.
func TestRecommendLeavesOutValuesThatFail(t *testing.T) {
	run := poolSweep([]float64{2400, 2400, 2400, 2400, 2400, 2400}, 0.02, 1, "")
	run.Experiment.Load.Model = lab.ModelOpen
	for i := range run.Trials {
		tr := &run.Trials[i]
		if tr.Variant == "db-pool=1" || tr.Variant == "db-pool=2" {
			tr.Load.Errors = tr.Load.Requests / 3
			tr.Load.LatencyMs.P99 /= 4
		}
		if tr.Variant == "db-pool=5" {
			tr.Load.LatencyMs.P99 *= 2 // worse than 10 and up
		}
	}
	v := stats.Compare(run, 0)
	sc := v.Sweep.Scenarios[0]
	r := sc.Recommendation
	if r.Metric != "p99" || r.Cheapest != "db-pool=10" || r.Best == "db-pool=1" || r.Best == "db-pool=2" {
		t.Fatalf("recommendation %+v", r)
	}
	for _, want := range []string{"; below 10 (at 5) latency p99 rises", "; left out, for failed requests: 1 (33 %), 2 (33 %)"} {
		if !strings.Contains(r.Sentence, want) {
			t.Errorf("sentence %q lacks %q", r.Sentence, want)
		}
	}
	if got := strings.Join(v.Sweep.Metrics, ","); got != "rate,p99,cpu,peak_rss,errors" {
		t.Errorf("tabled metrics %s, want the sweep's four and errors", got)
	}

	// Without failures there is no errors column, and a headline that is
	// none of the sweep's metrics is tabled and recommended on.
	clean := poolSweep([]float64{1000, 1600, 2000, 2400, 2000, 1800}, 0.02, 1, "")
	clean.Experiment.Trials.Headline = "p50"
	cv := stats.Compare(clean, 0)
	if got := strings.Join(cv.Sweep.Metrics, ","); got != "rate,p99,cpu,peak_rss,p50" {
		t.Errorf("tabled metrics %s, want the sweep's four and the headline p50", got)
	}
	if cr := cv.Sweep.Scenarios[0].Recommendation; cr.Metric != "p50" || cr.CannotTell || cr.Best != "db-pool=10" {
		t.Errorf("p50 headline: %+v", cr)
	}

	// A sweep headlined on errors tables them once, failures or not.
	run.Experiment.Trials.Headline = "errors"
	if got := strings.Join(stats.Compare(run, 0).Sweep.Metrics, ","); got != "rate,p99,cpu,peak_rss,errors" {
		t.Errorf("errors headline: tabled metrics %s, want errors once", got)
	}
}

// A value with failed trials is never the best nor recommended, however
// good its survivors (the memory sweep's 48M, killed in 5 trials of 6, was
// "★ best" for its one): the sentence says how many failed. Trials left
// out for interference are no failures.
func TestRecommendLeavesOutValuesWithFailedTrials(t *testing.T) {
	run := poolSweep([]float64{1000, 1600, 2000, 2000, 2000, 1800}, 0.02, 1, "")
	failed := 0
	for i := range run.Trials {
		tr := &run.Trials[i]
		switch {
		case tr.Variant == "db-pool=5" && tr.Rep > 1:
			tr.Error = "oom-kill: killed by the kernel"
			failed++
		case tr.Variant == "db-pool=5":
			tr.Load.Rate *= 2 // the survivor is by far the fastest
		case tr.Variant == "db-pool=20" && tr.Rep == 3:
			tr.Error = "interference: other work used more than 10% of the machine's CPUs in round 3"
		}
	}
	v := stats.Compare(run, 0)
	sc := v.Sweep.Scenarios[0]
	r := sc.Recommendation
	if r.Best == "db-pool=5" || r.Cheapest == "db-pool=5" || r.Best == "" {
		t.Fatalf("a value with %d failed trials recommended: %+v", failed, r)
	}
	for _, p := range sc.Points {
		switch want := map[string]int{"db-pool=5": failed}[p.Variant]; {
		case p.Failed != want || p.Trials != 10:
			t.Errorf("%s: %d of %d trials failed, want %d of 10", p.Variant, p.Failed, p.Trials, want)
		}
	}
	if want := "; left out, for failed trials: 5 (9 of 10)"; !strings.Contains(r.Sentence, want) {
		t.Errorf("sentence %q lacks %q", r.Sentence, want)
	}
}
