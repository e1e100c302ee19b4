package stats

import "github.com/pgrst-lab/pgrst-lab/lab"

// DecidedMargin is the change, in percent, below which a difference is
// too small to matter for Decided.
const DecidedMargin = 1.0

// Decided is the adaptive stopping rule the run loop calls after each
// round (once Trials.Min rounds are done). A run is decided when, for every
// scenario and every variant, the primary metric (throughput) either
// differs significantly from the baseline at alpha, or the conservative
// confidence interval of its change (Row.DiffCI) lies within
// ±DecidedMargin %: more trials would not change the answer.
//
// Checking after every round is "optional stopping": it raises the chance
// of a false positive above alpha (roughly doubling it with 5 to 10 looks).
// Keep Trials.Min at 5 or more; reports show p-values so readers can judge.
func Decided(run *lab.Run, alpha float64) bool {
	heads := Compare(run, alpha).Headlines()
	if len(heads) == 0 {
		return false
	}
	for _, r := range heads {
		if r.Significant {
			continue
		}
		if lo, hi, ok := r.DiffCI(); ok && lo >= -DecidedMargin && hi <= DecidedMargin {
			continue
		}
		return false
	}
	return true
}

// DecidedFunc adapts Decided to the run loop's hook (lab.Runner.Decided),
// using the experiment's alpha.
func DecidedFunc(run *lab.Run) bool { return Decided(run, 0) }
