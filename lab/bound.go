package lab

import (
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab/postgrest"
)

// Bound is the most load a run of an experiment can generate, counted
// from its settings before it runs: what `lab validate` states. Each load
// is counted with its warm-up; the loads run one after the other.
type Bound struct {
	// Load is every load's time: a bound, but for a crashed trial's
	// repeat (a trial that ends in a crash runs once more).
	Load time.Duration
	// Trials is the trials at trials.max rounds (a duet's two halves
	// share a load and count once); Steps is the most loads one trial
	// takes: a search's steps (search model), else 1.
	Trials, Steps int
	// Capacity is the efficiency model's capacity loads, included in
	// Load: per scenario a search (at most CapacitySteps steps) and a
	// closed run, each cut to capacityStep after capacityWarmup.
	Capacity      time.Duration
	CapacitySteps int
	// Applies is how many times a variant is applied, at most (before
	// every trial, and once for the capacity searches): each restarts the
	// target (or reloads its config) and waits until it is ready. That is
	// not load, and is bounded only by the server side's readiness timeout.
	Applies int
}

// Bound computes e's Bound. searchSteps is the most steps a search of a
// load can take, whatever each step's outcome: the load generator's rule
// (loadgen/trial.SearchSteps), which the domain does not hold.
func (e *Experiment) Bound(searchSteps func(Load) int) Bound {
	b := Bound{Trials: e.Trials.Max * e.LoadsPerRound(), Steps: 1, Applies: e.Trials.Max * len(e.Variants) * len(e.Scenarios)}
	if e.Load.Model.SearchesEachTrial() {
		b.Steps = searchSteps(e.Load)
	}
	b.Load = time.Duration(b.Trials*b.Steps) * (e.Load.Warmup + e.Load.Duration)
	if e.Load.Model.Efficiency() {
		cs := e.Load.capacitySearch()
		step := cs.capacityStep()
		b.CapacitySteps = searchSteps(cs)
		b.Capacity = time.Duration(len(e.Scenarios)*(b.CapacitySteps+1)) * (step.Warmup + step.Duration)
		b.Load += b.Capacity
		b.Applies++
	}
	return b
}

// typicalCapacity is the capacity Typical assumes for a scenario the 2020
// benchmark did not run, req/s.
const typicalCapacity = 1000

// Typical is the load time a run of e takes when each scenario's capacity
// is typical: its rate in the 2020 benchmark (postgrest.Benchmark2020;
// typicalCapacity for a scenario it lacks), every repeat's search starting
// near the rate the last one found (searchRestart), as the runner does.
// stepsTo walks the load generator's search rule to a capacity
// (loadgen/trial.SearchStepsTo). Searches take about as many steps for a
// capacity twice or half as large (one more or one fewer), so the figure
// holds across machines within a step per search. For other models it is
// b.Load.
func (e *Experiment) Typical(b Bound, stepsTo func(ld Load, capacity float64) int) time.Duration {
	if !e.Load.Model.SearchesEachTrial() {
		return b.Load
	}
	steps := 0
	for _, sc := range e.Scenarios {
		c, ok := postgrest.Benchmark2020[sc]
		if !ok {
			c = typicalCapacity
		}
		again := e.Load
		again.Limit.MinRate = max(searchRestart*c, e.Load.Limit.MinRate)
		steps += stepsTo(e.Load, c) + (e.Trials.Max-1)*stepsTo(again, c)
	}
	if len(e.Custom) > 0 && len(e.Scenarios) == 0 {
		steps = e.Trials.Max * stepsTo(e.Load, typicalCapacity)
	}
	return time.Duration(steps*max(1, len(e.Variants))) * (e.Load.Warmup + e.Load.Duration)
}
