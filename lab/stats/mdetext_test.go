package stats

import (
	"math"
	"testing"
)

// An MDE of 100 % or more is written in whole percents, not to a tenth
// (issue 55: "±221.8 %" on a P99 said more than the run knew).
func TestMDEText(t *testing.T) {
	for pct, want := range map[float64]string{3.14: "±3.1%", 99.94: "±99.9%", 100: "±100%", 221.8: "±222%", math.Inf(1): "?", math.NaN(): "?"} {
		if got := mdeText(pct); got != want {
			t.Errorf("mdeText(%v) = %q, want %q", pct, got, want)
		}
	}
}

// A p below alpha that the sequential design's bound at this look does
// not admit says so beside it, in place of reading as a contradiction.
func TestPStringNamesTheLooksBound(t *testing.T) {
	r := Row{P: 0.005, Alpha: 0.05, Threshold: 0.0031, Baseline: Summary{N: 12}, Variant: Summary{N: 12}}
	if got, want := r.PString(), "p=0.005 n=12, above this look's bound 0.0031"; got != want {
		t.Errorf("PString %q, want %q", got, want)
	}
	r.Significant, r.P = true, 0.001
	if got := r.PString(); got != "p=0.001 n=12" {
		t.Errorf("a significant row: PString %q", got)
	}
}
