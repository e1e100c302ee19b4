package stats

import (
	"slices"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// LimitsAsRate is run with each trial's throughput made the limit it
// found, as the limits table reads it (Limits): a sustained search's
// offered rate held (Load.AskedRate), the answered rate of the step that
// met the limit otherwise (already the trial's throughput). Verdicts on
// the result's throughput are verdicts on the limits the table states,
// over the same trials and with the same medians. Other runs come back
// as they are.
func LimitsAsRate(run *lab.Run) *lab.Run {
	if !run.Experiment.Load.Model.SearchesEachTrial() || !run.Experiment.Load.Limit.Sustained() {
		return run
	}
	out := *run
	out.Trials = slices.Clone(run.Trials)
	for i := range out.Trials {
		if l := &out.Trials[i].Load; l.AskedRate > 0 && l.Requests > 0 {
			l.Rate = l.AskedRate
		}
	}
	return &out
}

// CompareLimits compares two runs' limits (CompareRuns on LimitsAsRate of
// each): a as the baseline, each variant of b against a's of the same
// name, or the baselines.
func CompareLimits(a, b *lab.Run, labelA, labelB string, alpha float64) *Verdicts {
	return CompareRuns(LimitsAsRate(a), LimitsAsRate(b), labelA, labelB, alpha)
}
