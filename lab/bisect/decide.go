package bisect

import (
	"fmt"
	"math"

	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// Level is where a step placed its midpoint.
type Level string

// Levels.
const (
	Old     Level = "old level"   // like GOOD: the change comes after the midpoint
	New     Level = "new level"   // like BAD: the change is the midpoint or before it
	Unknown Level = "cannot tell" // Decision.Why says why
)

// Tolerance is how far from an end's level, as a share of the change
// between the ends, a midpoint that differs from that end significantly
// still counts as at its level: a small change of its own elsewhere in the
// range must not stop the search for a large one.
const Tolerance = 0.25

// Comparisons are one step's paired comparisons of the metric, rows of
// package stats: the midpoint against GOOD (GOOD the baseline), the
// midpoint against BAD (BAD the baseline), and BAD against GOOD, the
// change itself in the step's rounds.
type Comparisons struct {
	VsGood, VsBad, Ends stats.Row
}

// Decision is a step's answer and its reason.
type Decision struct {
	Level Level
	// Share is where the midpoint lies between the ends' levels, on a log
	// scale: 0 at GOOD's, 1 at BAD's; NaN when unknown.
	Share float64
	Why   string
}

// Decide places the midpoint. settled is false while more rounds could
// still decide (the ends do not differ yet, or neither end differs from
// the midpoint yet), and the run's stop rule goes on; with final (the
// run's last round) those become Unknown, with the reason.
func Decide(c Comparisons, final bool) (d Decision, settled bool) {
	d = Decision{Level: Unknown, Share: math.NaN()}
	g, b, e := c.VsGood, c.VsBad, c.Ends
	for _, r := range []stats.Row{g, b, e} {
		if r.Baseline.N == 0 || r.Variant.N == 0 {
			d.Why = fmt.Sprintf("no valid trial of %s or %s in the metric", r.BaselineName, r.VariantName)
			return d, final
		}
	}
	if !e.Significant {
		d.Why = fmt.Sprintf("the ends do not differ in this step's rounds (BAD vs GOOD %+.1f%%, p=%.3g above %.3g; MDE %s): the change is too small for these rounds (raise --max-trials) or not in this range",
			e.DeltaPct, e.P, e.Threshold, e.MDEString())
		return d, final
	}
	d.Share = share(g.DeltaPct, e.DeltaPct)
	if math.IsNaN(d.Share) {
		d.Why = fmt.Sprintf("the change has no size to place the midpoint on (midpoint vs GOOD %+.1f%%, BAD vs GOOD %+.1f%%)", g.DeltaPct, e.DeltaPct)
		return d, final
	}
	nearOld := !g.Significant || math.Abs(d.Share) <= Tolerance
	nearNew := !b.Significant || math.Abs(d.Share-1) <= Tolerance
	switch {
	case nearOld && !nearNew:
		d.Level, d.Why = Old, fmt.Sprintf("differs from BAD (p=%.3g); at GOOD's level, %.0f%% of the change", b.P, 100*d.Share)
		return d, true
	case nearNew && !nearOld:
		d.Level, d.Why = New, fmt.Sprintf("differs from GOOD (p=%.3g); at BAD's level, %.0f%% of the change", g.P, 100*d.Share)
		return d, true
	case nearOld && nearNew:
		d.Why = fmt.Sprintf("differs from neither end clearly after %d rounds (vs GOOD p=%.3g, MDE %s; vs BAD p=%.3g, MDE %s): the noise hides the change here; raise --max-trials",
			rounds(g), g.P, g.MDEString(), b.P, b.MDEString())
		return d, final
	case d.Share > 0 && d.Share < 1:
		d.Why = fmt.Sprintf("between the levels, at %.0f%% of the change, differing from both ends: the change is spread over several commits, or this one has a level of its own", 100*d.Share)
	default:
		d.Why = fmt.Sprintf("beyond the ends' levels, at %.0f%% of the change: another change in the range moves the metric too", 100*d.Share)
	}
	return d, true
}

// share is where a change of midPct lies on one of endsPct, on a log
// scale (so that +100 % then -50 % is back at the start); NaN when the
// change has no size.
func share(midPct, endsPct float64) float64 {
	a, b := math.Log1p(midPct/100), math.Log1p(endsPct/100)
	if b == 0 || math.IsNaN(a) || math.IsNaN(b) || math.IsInf(a, 0) || math.IsInf(b, 0) {
		return math.NaN()
	}
	return a / b
}

// rounds is the number of pairs a row was tested on (or its values, unpaired).
func rounds(r stats.Row) int {
	if r.Paired != nil && r.Test == stats.TestSignedRank {
		return r.Paired.N
	}
	return min(r.Baseline.N, r.Variant.N)
}
