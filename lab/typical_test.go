package lab

import (
	"math"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab/postgrest"
)

// Typical counts, per scenario, a first search to the 2020 benchmark's
// rate and the repeats' searches, told apart.
func TestTypicalCountsFirstSearchAndRepeats(t *testing.T) {
	e := &Experiment{Scenarios: []string{"GETSingle", "Mine"}, Variants: []Variant{{Name: "a"}},
		Load:   Load{Model: ModelSearch, Duration: 2 * time.Second, Warmup: 500 * time.Millisecond, Limit: Limit{MinRate: 10}},
		Trials: Trials{Min: 3, Max: 3}}
	var calls []string
	stepsTo := fakeRule{stepsTo: func(ld Load, c float64, again bool) int {
		if want := postgrest.Benchmark2020["GETSingle"]; (math.Abs(c-want) > 1e-9) && c != typicalCapacity {
			t.Errorf("capacity %v, want GETSingle's 2020 rate or the typical one", c)
		}
		if !again {
			calls = append(calls, "first")
			return 14
		}
		calls = append(calls, "repeat")
		return 6
	}}
	got := e.Typical(Bound{}, stepsTo)
	if want := time.Duration(2*(14+2*6)) * 2500 * time.Millisecond; got != want {
		t.Errorf("typical %v, want %v (calls %v)", got, want, calls)
	}
	e.Load.Model = ModelClosed
	if got := e.Typical(Bound{Load: time.Minute}, stepsTo); got != time.Minute {
		t.Errorf("closed model: %v, want the bound's load", got)
	}
}
