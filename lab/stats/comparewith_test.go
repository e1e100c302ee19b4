package stats_test

import (
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab/stats"
	"github.com/pgrst-lab/pgrst-lab/lab/stats/statstest"
)

// A three-way run (main the baseline, HEAD, and a release 10 % slower):
// CompareWith tests HEAD against the release in the same rounds, with the
// release as the baseline of its rows.
func TestCompareWithAnotherBaseline(t *testing.T) {
	run := statstest.Run(statstest.Spec{
		Experiment: "binaries", Scenarios: []string{"GETSingle"}, Trials: 12, Noise: 0.01, Seed: 7,
		Variants: []statstest.Variant{
			{Name: "main", Baseline: true, Rate: 2400, P50Ms: 4, ServerUs: 450, DBUs: 330, RSSMB: 60},
			{Name: "HEAD", Rate: 2400, P50Ms: 4, ServerUs: 450, DBUs: 330, RSSMB: 60},
			{Name: "v1.10.0", Rate: 2160, P50Ms: 4.4, ServerUs: 500, DBUs: 330, RSSMB: 60},
		},
	})
	v := stats.CompareWith(run, 0, "v1.10.0", "HEAD")
	if v.Baseline != "v1.10.0" || len(v.Variants) != 1 || v.Variants[0] != "HEAD" {
		t.Fatalf("baseline %q, variants %v", v.Baseline, v.Variants)
	}
	r := row(t, v, "GETSingle", "HEAD", "rate")
	if r.BaselineName != "v1.10.0" || r.Outcome != stats.Better {
		t.Errorf("HEAD vs v1.10.0 throughput: baseline %q, outcome %s (%s), want better than the release", r.BaselineName, r.Outcome, r.Delta())
	}
	if r := row(t, stats.Compare(run, 0), "GETSingle", "HEAD", "rate"); r.BaselineName != "main" || r.Outcome == stats.Better || r.Outcome == stats.Worse {
		t.Errorf("HEAD vs main: baseline %q, outcome %s, want no change against main", r.BaselineName, r.Outcome)
	}
	if got := stats.CompareWith(run, 0, "v1.10.0", "nosuch"); len(got.For("GETSingle", "nosuch")) != 0 {
		t.Errorf("a variant the run lacks got rows")
	}
}
