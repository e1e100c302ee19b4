package lab

import (
	"math"
	"testing"
	"time"
)

// Typical counts, per scenario, a first search to the 2020 benchmark's
// rate and the repeats' searches from searchRestart of it.
func TestTypicalCountsFirstSearchAndRepeats(t *testing.T) {
	e := &Experiment{Scenarios: []string{"GETSingle", "Mine"}, Variants: []Variant{{Name: "a"}},
		Load:   Load{Model: ModelSearch, Duration: 2 * time.Second, Warmup: 500 * time.Millisecond, Limit: Limit{MinRate: 10}},
		Trials: Trials{Min: 3, Max: 3}}
	var calls []string
	stepsTo := func(ld Load, c float64) int {
		if ld.Limit.MinRate == 10 {
			calls = append(calls, "first")
			return 14
		}
		if math.Abs(ld.Limit.MinRate-searchRestart*c) > 1e-9 {
			t.Errorf("a repeat starts at %v, want %v of %v", ld.Limit.MinRate, searchRestart, c)
		}
		calls = append(calls, "repeat")
		return 6
	}
	got := e.Typical(Bound{}, stepsTo)
	if want := time.Duration(2*(14+2*6)) * 2500 * time.Millisecond; got != want {
		t.Errorf("typical %v, want %v (calls %v)", got, want, calls)
	}
	e.Load.Model = ModelClosed
	if got := e.Typical(Bound{Load: time.Minute}, stepsTo); got != time.Minute {
		t.Errorf("closed model: %v, want the bound's load", got)
	}
}
