package stats

import (
	"fmt"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// Estimate says what an experiment will run and how long it takes, given
// its bound b (lab.Experiment.Bound) and its typical load time (the load
// of a search run whose capacities are typical, lab.Experiment.Typical;
// b.Load otherwise): the load at most (a search's every step, the
// efficiency model's capacity searches, warm-ups), then about how long in
// all with what is not load and has no bound (restarts, readiness waits,
// each trial's setup: DefaultTrialOverhead a trial, as lab plan assumes).
func Estimate(e *lab.Experiment, b lab.Bound, typical time.Duration) string {
	duet := ""
	if e.Trials.Order == lab.OrderDuet {
		duet = ", both at once (duet)"
	}
	how := "warm-ups included"
	if b.Steps > 1 {
		how = fmt.Sprintf("each trial's search up to %d steps with their warm-ups", b.Steps)
	}
	if b.Capacity > 0 {
		how += fmt.Sprintf(", %s of capacity searches first (up to %d steps each)", b.Capacity, b.CapacitySteps)
	}
	setup := time.Duration(b.Trials) * DefaultTrialOverhead
	about := fmt.Sprintf("about %s in all", (typical + setup).Round(time.Second))
	if typical < b.Load {
		about = fmt.Sprintf("about %s in all where each scenario's capacity is near the 2020 benchmark's (a search takes a step more or less per doubling),", (typical + setup).Round(time.Second))
	}
	return fmt.Sprintf("%s x %s x %d..%d trials, %s load%s: at most %s of load if no trial crashes (%s); %s with up to %d applies (restarts, readiness) and each trial's setup (%s assumed)",
		count(len(e.Variants), "variant"), count(len(e.Scenarios), "scenario"),
		e.Trials.Min, e.Trials.Max, e.Load.Model, duet, b.Load, how,
		about, b.Applies, DefaultTrialOverhead)
}

// count is "1 variant", "3 variants".
func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
