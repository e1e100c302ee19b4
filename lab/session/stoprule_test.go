package session

import (
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
	"github.com/pgrst-lab/pgrst-lab/lab/stats/statstest"
)

// Options.Gate holds the default stop rule up: a run the headline rule
// would stop goes on while the gate's condition does not hold, and stops
// with it once it does.
func TestGateHoldsTheStopRuleUp(t *testing.T) {
	run := statstest.Run(statstest.Spec{Experiment: "ab", Scenarios: []string{"GETSingle"}, Trials: 8, Noise: 0.005, Seed: 6,
		Variants: []statstest.Variant{
			{Name: "base", Baseline: true, Rate: 2000, P50Ms: 4, ServerUs: 400, DBUs: 300, RSSMB: 50},
			{Name: "pr", Rate: 1000, P50Ms: 8, ServerUs: 800, DBUs: 300, RSSMB: 50},
		}})
	if !stats.DecidedFunc(run) {
		t.Fatal("the headline rule does not stop a run twice as slow: the test needs one it stops")
	}
	for _, c := range []struct {
		gate bool
		want bool
	}{{false, false}, {true, true}} {
		r := Options{Gate: func(*lab.Run) bool { return c.gate }}.Runner()
		if got := r.Decided(run); got != c.want {
			t.Errorf("gate condition %v: stop %v, want %v", c.gate, got, c.want)
		}
	}
	if r := (Options{}).Runner(); !r.Decided(run) {
		t.Error("without a gate the default rule does not stop")
	}
}
