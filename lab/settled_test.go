package lab

import (
	"context"
	"testing"
)

// A scenario whose figures settle is not measured in later rounds; the
// others are, until the run is decided or trials.max.
func TestSettledScenarioSkipsLaterRounds(t *testing.T) {
	e := testExperiment()
	e.Scenarios = []string{"GETSingle", "GETAllEmbed"}
	e.Variants = e.Variants[:1]
	e.Trials.Min, e.Trials.Max = 2, 4
	settledAsked := 0
	r := &Runner{Server: &fakeServer{}, Loader: &fakeLoader{}, Decided: FixedRounds,
		Settled: func(run *Run, variant, scenario string) bool {
			settledAsked++
			return scenario == "GETSingle"
		}}
	run, err := r.Run(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	per := map[string]int{}
	for _, tr := range run.Trials {
		per[tr.Scenario]++
	}
	if per["GETSingle"] != 2 || per["GETAllEmbed"] != 4 {
		t.Errorf("trials per scenario %v: want GETSingle only in the 2 rounds up to trials.min, GETAllEmbed in all 4", per)
	}
	if settledAsked == 0 {
		t.Error("Settled never asked")
	}
	// Without Settled, every round measures everything.
	r.Settled = nil
	if run, err = r.Run(context.Background(), e); err != nil || len(run.Trials) != 8 {
		t.Errorf("without Settled: %d trials (%v), want 8", len(run.Trials), err)
	}
}
