package stats_test

import (
	"math"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab/stats"
	"github.com/pgrst-lab/pgrst-lab/lab/stats/statstest"
)

func TestHolmAdjust(t *testing.T) {
	got := stats.HolmAdjust([]float64{0.01, 0.04, 0.03})
	want := []float64{0.03, 0.06, 0.06} // 3x0.01, max(0.03, 2x0.03), max(0.06, 1x0.04)
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Fatalf("Holm of 0.01 0.04 0.03: got %v, want %v", got, want)
		}
	}
	if got := stats.HolmAdjust([]float64{0.5, 0.9}); got[0] != 1 || got[1] != 1 {
		t.Errorf("adjusted p-values are at most 1: %v", got)
	}
}

// The slow line that B makes faster is flagged, the unchanged one is not,
// and the line only B answered is shown untested.
func TestEndpointVerdicts(t *testing.T) {
	run := statstest.Run(statstest.Spec{Experiment: "loadtest", Scenarios: []string{"targets"}, Trials: 10, Noise: 0.02, Seed: 3,
		Variants: []statstest.Variant{{Name: "A", Baseline: true, Rate: 1000, P50Ms: 2}, {Name: "B", Rate: 1000, P50Ms: 2}}})
	statstest.AddEndpoints(run, map[string]float64{"B": 4}, 0.03, "B", 9)
	v := stats.Compare(run, 0)
	if len(v.Endpoints) != 3 {
		t.Fatalf("want 3 lines, got %+v", v.Endpoints)
	}
	slow, fast, only := v.Endpoints[0], v.Endpoints[1], v.Endpoints[2]
	if slow.Line != 1 || !slow.Changed() || slow.Row.Outcome != stats.Better || !(slow.Row.DeltaPct < -60) {
		t.Errorf("slow line: %+v", slow.Row)
	}
	if fast.Line != 4 || fast.Changed() || fast.HolmP < fast.Row.P || math.IsInf(fast.Row.MDEPct, 0) {
		t.Errorf("fast line: changed %v, p %v, Holm p %v, MDE %v", fast.Changed(), fast.Row.P, fast.HolmP, fast.Row.MDEPct)
	}
	if only.Tested || only.Changed() || only.Name != "404 GET /nothing" || only.VarShare == 0 || only.BaseShare != 0 {
		t.Errorf("a line of B only: %+v", only)
	}
	if s := slow.BaseShare + fast.BaseShare; s < 50 || s > 60 {
		t.Errorf("shares of the baseline's requests: %v + %v", slow.BaseShare, fast.BaseShare)
	}
	if got := stats.ChangedFirst([]stats.Endpoint{fast, only, slow}); got[0].Name != slow.Name || got[1].Name != fast.Name {
		t.Errorf("changed lines first, then file order: %s, %s", got[0].Name, got[1].Name)
	}
}

// Every quantile of a line is tested apart: a tail that B makes slower
// (P99 x1.5, the rest as A's) is flagged on P99 alone, the P50 stays "~",
// and the line sorts after the one whose P50 changed.
func TestEndpointQuantiles(t *testing.T) {
	run := statstest.Run(statstest.Spec{Experiment: "loadtest", Scenarios: []string{"targets"}, Trials: 10, Noise: 0.02, Seed: 5,
		Variants: []statstest.Variant{{Name: "A", Baseline: true, Rate: 1000, P50Ms: 2}, {Name: "B", Rate: 1000, P50Ms: 2}}})
	statstest.AddEndpoints(run, map[string]float64{"B": 4}, 0.03, "", 11)
	for i := range run.Trials {
		if tr := &run.Trials[i]; tr.Variant == "B" {
			tr.Load.Endpoints[1].P99Ms *= 1.5
		}
	}
	v := stats.Compare(run, 0)
	if len(v.Endpoints) != 2 {
		t.Fatalf("want 2 lines, got %d", len(v.Endpoints))
	}
	slow, fast := v.Endpoints[0], v.Endpoints[1]
	var names []string
	for _, q := range fast.Quantiles {
		names = append(names, q.Name)
		if math.IsInf(q.Row.MDEPct, 0) || q.HolmP < q.Row.P {
			t.Errorf("%s: MDE %v, p %v, Holm p %v", q.Name, q.Row.MDEPct, q.Row.P, q.HolmP)
		}
		if want := q.Name == "P99"; q.Row.Significant != want {
			t.Errorf("tail line %s: significant %v (change %+.1f%%, Holm p %.3g), want %v", q.Name, q.Row.Significant, q.Row.DeltaPct, q.HolmP, want)
		}
	}
	if got := strings.Join(names, ","); got != "P0,P50,P90,P95,P99" {
		t.Errorf("quantiles %s", got)
	}
	if fast.Changed() || !fast.ChangedAny() || fast.Row.Metric.Name != "endpoint_p50" {
		t.Errorf("tail line: P50 changed %v, any %v, headline %s", fast.Changed(), fast.ChangedAny(), fast.Row.Metric.Name)
	}
	for _, q := range slow.Quantiles {
		if !q.Row.Significant || q.Row.Outcome != stats.Better {
			t.Errorf("slow line %s: %v %v", q.Name, q.Row.Significant, q.Row.Outcome)
		}
	}
	if got := stats.ChangedFirst([]stats.Endpoint{fast, slow}); got[0].Name != slow.Name {
		t.Errorf("the line whose P50 changed comes first: %s", got[0].Name)
	}
}
