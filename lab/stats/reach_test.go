package stats_test

import (
	"math"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// The smallest p-values of the rank tests: the signed-rank test needs 6
// pairs to reach 0.05 (2/2^5 = 0.0625), Mann-Whitney 4 values per group
// (2/C(6,3) = 0.1, 2/C(8,4) = 0.029).
func TestMinP(t *testing.T) {
	if got := stats.MinP(3, true); got != 0.25 {
		t.Errorf("signed-rank, 3 pairs: %v, want 0.25", got)
	}
	if got := stats.MinP(3, false); math.Abs(got-0.1) > 1e-12 {
		t.Errorf("Mann-Whitney, 3+3: %v, want 0.1", got)
	}
	if p, u := stats.RoundsNeeded(0.05, true), stats.RoundsNeeded(0.05, false); p != 6 || u != 4 {
		t.Errorf("rounds needed at 0.05: paired %d, unpaired %d; want 6 and 4", p, u)
	}
}

// With 3 trials per point the paired test cannot reach p <= 0.05 (it
// warns "need >= 6 pairs"), so no change was detectable, however large:
// the row states no MDE (the headline printed ±1.6 %) and says why. With
// 8 rounds the same design states one.
func TestNoMDEWhereTheTestCannotDecide(t *testing.T) {
	v := stats.Compare(tcpUnix(2600, 3, 0.01, 1), 0.05)
	r := row(t, v, "GETSingle", "unix", "rate")
	if r.Test != stats.TestSignedRank || r.Paired == nil || r.Paired.N != 3 {
		t.Fatalf("row %+v: want a paired row of 3 pairs", r)
	}
	if !math.IsInf(r.MDEPct, 1) || r.MDEString() != "?" || !r.Undecidable() {
		t.Errorf("MDE %v (%s), want none: 3 pairs cannot reach p <= %.3g", r.MDEPct, r.MDEString(), r.Threshold)
	}
	if s := r.MDESentence(); !strings.Contains(s, "with 3 pairs the test cannot reach p <= 0.05") || !strings.Contains(s, "needs >= 6") {
		t.Errorf("sentence %q", s)
	}
	for _, x := range v.Rows {
		if !math.IsInf(x.MDEPct, 1) {
			t.Errorf("%s: MDE ±%.1f%% stated where the test cannot decide", x.Metric.Name, x.MDEPct)
		}
	}

	run := tcpUnix(2600, 3, 0.01, 1)
	run.Experiment.Trials.Analysis = stats.AnalysisUnpaired
	if r := row(t, stats.Compare(run, 0.05), "GETSingle", "unix", "rate"); !math.IsInf(r.MDEPct, 1) || !strings.Contains(r.MDESentence(), "with 3 trials per variant") {
		t.Errorf("unpaired 3+3: MDE %v, %q", r.MDEPct, r.MDESentence())
	}

	if r := row(t, stats.Compare(tcpUnix(2600, 8, 0.01, 1), 0.05), "GETSingle", "unix", "rate"); math.IsInf(r.MDEPct, 0) || r.Undecidable() {
		t.Errorf("8 pairs: MDE %v, want one", r.MDEPct)
	}
}

// Reach is lab validate's warning: it names the trials.max that can reach
// a verdict, at the last look's threshold of the experiment's design.
func TestReach(t *testing.T) {
	e := func(min, max int, analysis lab.Analysis, sequential bool) *lab.Experiment {
		return &lab.Experiment{Variants: []lab.Variant{{Name: "a"}, {Name: "b"}},
			Trials: lab.Trials{Min: min, Max: max, Alpha: 0.05, Analysis: analysis, Sequential: &sequential}}
	}
	for _, c := range []struct {
		e    *lab.Experiment
		want string // "" when reachable
	}{
		{e(3, 3, "", false), "trials.max = 3 cannot reach a verdict: with 3 pairs (rounds) the paired signed-rank test gives no p-value below 0.25, above the 0.05 it must reach"},
		{e(3, 5, "", true), "It needs trials.max >= 6"},
		{e(6, 6, "", false), ""},
		{e(3, 3, stats.AnalysisUnpaired, false), "It needs trials.max >= 4"},
		{e(4, 4, stats.AnalysisUnpaired, false), ""},
	} {
		got := stats.Reach(c.e)
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("min %d max %d %q: %q, want %q", c.e.Trials.Min, c.e.Trials.Max, c.e.Trials.Analysis, got, c.want)
		}
	}
	one := e(1, 1, "", false)
	one.Variants = one.Variants[:1]
	if got := stats.Reach(one); got != "" {
		t.Errorf("one variant (nothing compared): %q", got)
	}
}
