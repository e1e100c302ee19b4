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

// SearchRule is the load generator's rule for what a capacity search
// costs (loadgen/trial.Rule), which the domain does not hold.
type SearchRule interface {
	// Steps is the most steps one search of ld takes, whatever each
	// step's outcome, and the most load time they take with their
	// warm-ups.
	Steps(ld Load) (steps int, load time.Duration)
	// Typical is the load time a search of ld takes on a target whose
	// capacity is capacity req/s; again says it repeats one of the run
	// (it starts from what the last one found, as the runner does).
	Typical(ld Load, capacity float64, again bool) time.Duration
}

// Bound computes e's Bound with the load generator's search rule.
func (e *Experiment) Bound(rule SearchRule) Bound {
	b := Bound{Trials: e.Trials.Max * e.LoadsPerRound(), Steps: 1, Applies: e.Trials.Max * len(e.Variants) * len(e.Scenarios)}
	per := e.Load.Warmup + e.Load.Duration
	if e.Load.Model.SearchesEachTrial() {
		b.Steps, per = rule.Steps(e.Load)
	}
	b.Load = time.Duration(b.Trials) * per
	if e.Load.Model.Efficiency() {
		cs := e.Load.capacitySearch()
		step := cs.capacityStep()
		b.CapacitySteps, _ = rule.Steps(cs)
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
// from what the last one found, as the runner does (rule.Typical walks
// the load generator's search rule to a capacity). Searches take about as
// many steps for a capacity twice or half as large (one more or one
// fewer), so the figure holds across machines within a step per search.
// For other models it is b.Load.
func (e *Experiment) Typical(b Bound, rule SearchRule) time.Duration {
	if !e.Load.Model.SearchesEachTrial() {
		return b.Load
	}
	var load time.Duration
	for _, sc := range e.Scenarios {
		c, ok := postgrest.Benchmark2020[sc]
		if !ok {
			c = typicalCapacity
		}
		load += rule.Typical(e.Load, c, false) + time.Duration(e.Trials.Max-1)*rule.Typical(e.Load, c, true)
	}
	if len(e.Custom) > 0 && len(e.Scenarios) == 0 {
		load = time.Duration(e.Trials.Max) * rule.Typical(e.Load, typicalCapacity, false)
	}
	return load * time.Duration(max(1, len(e.Variants)))
}
