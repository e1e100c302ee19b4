package stats

import "github.com/pgrst-lab/pgrst-lab/lab"

// DecidedMargin is the change, in percent, below which a difference is
// too small to matter for Decided.
const DecidedMargin = 1.0

// Decided is the adaptive stopping rule the run loop calls after each
// round (once Trials.Min rounds are done). A run is decided when, for every
// scenario and every variant, the headline metric (lab.PrimaryMetric) either
// differs significantly from the baseline at this look's threshold, or the
// confidence interval of its change (Row.DiffCI) lies within
// ±DecidedMargin %: more trials would not change the answer.
//
// With a sequential design (the default, Trials.Sequential) the threshold
// of each look comes from a group-sequential boundary that spends alpha
// over the looks between Trials.Min and Trials.Max, so stopping at the
// first significant look keeps the false-positive rate at or below alpha
// (stopping for a change within the margin only lowers it). With
// sequential = false every look tests at alpha: "optional stopping", whose
// false-positive rate grows with the number of looks.
//
// A run whose scenarios replay a targets file also states a verdict per
// line (Endpoint), Holm-adjusted across the lines. It is not decided at a
// look where those verdicts are out of the test's reach (Holm's strictest
// step, Threshold / lines tested, below the smallest p-value the rounds
// can give) while Trials.Max rounds would bring them in reach: stopping
// there would leave every line undecidable, whatever its change.
func Decided(run *lab.Run, alpha float64) bool {
	v := compare(run, alpha, true)
	heads := v.Headlines()
	if len(heads) == 0 {
		// Nothing compared (a limits run): decided once every limit is
		// precise (LimitsPrecise).
		return run.Experiment.Load.Limit.Sustained() && LimitsPrecise(run)
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
	return !linesAwaitReach(v)
}

// linesAwaitReach reports whether some comparison's per-line verdicts
// cannot be reached at this look but can within the design's rounds
// (LinesReach.Need: reachable at a look up to Max is reachable at Max).
func linesAwaitReach(v *Verdicts) bool {
	for _, l := range v.LinesReach() {
		if !l.Reachable() && l.N < v.Design.Max && l.Need <= v.Design.Max {
			return true
		}
	}
	return false
}

// DecidedFunc adapts Decided to the run loop's hook (lab.Runner.Decided),
// using the experiment's alpha.
func DecidedFunc(run *lab.Run) bool { return Decided(run, 0) }
