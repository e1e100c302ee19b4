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
// between the ends, a midpoint that differs from both ends significantly
// still counts as at the nearer one's level: a small change elsewhere in
// the range must not stop the search for a large one, nor the noise of a
// busy machine, which put a midpoint at BAD's level at 73 % of the change
// in six rounds (a load of 15 on 2 cores, 2026-12-05). The middle third
// is "between the levels".
const Tolerance = 1.0 / 3

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

// Decide places the midpoint: at the old level when it differs from BAD
// and not from GOOD, at the new when the other way round. When it differs
// from both, where it lies on the change between the ends decides: within
// Tolerance of an end's level it is at that level, else it cannot tell
// (between the levels, or beyond them). settled is false while more rounds
// could still decide (it differs from neither end yet), and the run's stop
// rule goes on; with final (the run's last round) that becomes Unknown,
// with the reason.
func Decide(c Comparisons, final bool) (d Decision, settled bool) {
	d = Decision{Level: Unknown, Share: math.NaN()}
	g, b, e := c.VsGood, c.VsBad, c.Ends
	for _, r := range []stats.Row{g, b, e} {
		if r.Baseline.N == 0 || r.Variant.N == 0 {
			d.Why = fmt.Sprintf("no valid trial of %s or %s in the metric", r.BaselineName, r.VariantName)
			return d, final
		}
	}
	d.Share = share(g.DeltaPct, e.DeltaPct)
	at := func(end string) string {
		if math.IsNaN(d.Share) {
			return "at " + end + "'s level"
		}
		return fmt.Sprintf("at %s's level, %.0f%% of the change", end, 100*d.Share)
	}
	switch {
	case !g.Significant && b.Significant:
		d.Level, d.Why = Old, fmt.Sprintf("differs from BAD (p=%.3g), not from GOOD (p=%.3g); %s", b.P, g.P, at("GOOD"))
		return d, true
	case g.Significant && !b.Significant:
		d.Level, d.Why = New, fmt.Sprintf("differs from GOOD (p=%.3g), not from BAD (p=%.3g); %s", g.P, b.P, at("BAD"))
		return d, true
	case !g.Significant && !b.Significant && !e.Significant:
		d.Why = fmt.Sprintf("differs from neither end, and the ends do not differ in this step's rounds (BAD vs GOOD %+.1f%%, p=%.3g above %.3g; MDE %s): the change is too small for these rounds (raise --max-trials) or not in this range",
			e.DeltaPct, e.P, e.Threshold, e.MDEString())
		return d, final
	case !g.Significant && !b.Significant:
		d.Why = fmt.Sprintf("differs from neither end clearly after %d rounds (vs GOOD p=%.3g, MDE %s; vs BAD p=%.3g, MDE %s): the noise hides the change here; raise --max-trials",
			rounds(g), g.P, g.MDEString(), b.P, b.MDEString())
		return d, final
	case !e.Significant || math.IsNaN(d.Share):
		d.Why = fmt.Sprintf("differs from both ends (vs GOOD %+.1f%%, vs BAD %+.1f%%), which do not differ as much from each other (BAD vs GOOD %+.1f%%, p=%.3g): another change in the range moves the metric",
			g.DeltaPct, b.DeltaPct, e.DeltaPct, e.P)
	case math.Abs(d.Share) <= Tolerance:
		d.Level, d.Why = Old, fmt.Sprintf("differs from both ends, but only a little from GOOD: %s", at("GOOD"))
	case math.Abs(d.Share-1) <= Tolerance:
		d.Level, d.Why = New, fmt.Sprintf("differs from both ends, but only a little from BAD: %s", at("BAD"))
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
