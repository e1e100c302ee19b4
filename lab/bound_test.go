package lab

import (
	"testing"
	"time"
)

// A run's bound counts each trial's loads with their warm-ups: one per
// trial, a search's every step (as many as the load generator's plan
// allows), and the efficiency model's capacity searches and closed runs
// first, at their own cut-down step (1 s + 3 s).
func TestBoundCountsEveryLoad(t *testing.T) {
	var asked []Load
	steps := fakeRule{steps: func(ld Load) int { asked = append(asked, ld); return 18 }}
	e := testExperiment() // 2 variants, 1 scenario, trials.max 4, closed 0 s + 1 s
	e.Load.Warmup, e.Load.Duration = 2*time.Second, 10*time.Second
	if b := e.Bound(steps); b.Load != 8*12*time.Second || b.Trials != 8 || b.Steps != 1 || b.Applies != 8 || len(asked) != 0 {
		t.Errorf("closed: %+v", b)
	}

	e.Load.Model, e.Load.Limit = ModelSearch, Limit{P99: 50 * time.Millisecond}
	if b := e.Bound(steps); b.Load != 8*18*12*time.Second || b.Steps != 18 || len(asked) != 1 || asked[0].Limit.P99 != e.Load.Limit.P99 {
		t.Errorf("search: %+v (asked %+v)", b, asked)
	}

	asked = nil
	e.Load.Model, e.Load.Limit = ModelEfficiency, Limit{}
	e.Scenarios = []string{"GETSingle", "POSTSingle"}
	b := e.Bound(steps)
	capacity := 2 * (18 + 1) * 4 * time.Second // per scenario a search and a closed run of 1 s + 3 s
	if b.Capacity != capacity || b.CapacitySteps != 18 || b.Load != 16*12*time.Second+capacity || b.Applies != 17 {
		t.Errorf("efficiency: %+v, want %s of capacity loads", b, capacity)
	}
	if len(asked) != 1 || asked[0].Model != ModelSearch || asked[0].Limit.ErrorRate() != 0.001 {
		t.Errorf("efficiency: the capacity search's steps asked of %+v, want a search within CapacityLimit", asked)
	}

	e.Trials.Order = OrderDuet // both variants share each load
	if b := e.Bound(steps); b.Trials != 8 || b.Load != 8*12*time.Second+capacity {
		t.Errorf("duet: %+v", b)
	}
}

// fakeRule is a search rule of fixed steps, each warm-up + duration long.
type fakeRule struct {
	steps   func(Load) int
	stepsTo func(ld Load, capacity float64, again bool) int
}

func (f fakeRule) Steps(ld Load) (int, time.Duration) {
	n := f.steps(ld)
	return n, time.Duration(n) * (ld.Warmup + ld.Duration)
}

func (f fakeRule) Typical(ld Load, capacity float64, again bool) time.Duration {
	return time.Duration(f.stepsTo(ld, capacity, again)) * (ld.Warmup + ld.Duration)
}
