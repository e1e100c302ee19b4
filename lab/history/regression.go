package history

import (
	"fmt"
	"math"
	"slices"

	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// DefaultRegressionPct is the regression check's threshold when none is
// given (`lab history --gate` alone), in percent.
const DefaultRegressionPct = 2.0

// Regression is a series whose newest run begins a significant
// regression.
type Regression struct {
	Host, Hostname string
	Series         string // Series.Name()
	// Newest is the newest run; Previous the last run before it.
	Newest, Previous Point
	// Level is the level of the segment the newest run follows: the
	// median of its runs' medians; Pct the newest run's change against it.
	Level float64
	Pct   float64
}

func (f Regression) String() string {
	host := ""
	if f.Hostname != "" {
		host = f.Hostname + ": "
	}
	return fmt.Sprintf("%s%s: %+.1f%% against the level %s at %s (%s), after %s (%s)", host, f.Series, f.Pct, Num(f.Level),
		clean(f.Newest.ID), clean(f.Newest.Label(ByCommit)), clean(f.Previous.ID), clean(f.Previous.Label(ByCommit)))
}

// Regressions is the regression check (what `lab history --gate` exits
// on, with code 3): the series whose newest run begins a significant
// regression of at least pct percent. Only each machine's current
// edition counts (the group holding its newest run), and in it the last
// point of each series of the history's metrics. It fires on a series
// when, in the metric's bad direction and by at least pct, the newest
// run's 95 % interval excludes the level of the segment it follows (the
// median of the medians of the runs since the last change point, at least
// one) and its median lies outside the range of those medians, so that it
// is not within the run-to-run scatter already seen. The change is
// measured against that level.
//
// The detector needs at least two runs on each side of a change point
// (changepoint.Options.MinSegment), so it cannot itself say that the
// newest run begins a new level: this rule does, for one run. A
// regression that began before the newest run does not fire again: it
// fired when it began, and the change point lists it since. A
// Server-Timing series whose segment holds runs timing the phases on
// another clock than the newest run's (PostgREST before and from 14.2)
// is not checked.
func Regressions(h *History, pct float64) []Regression {
	pct = math.Abs(pct)
	var out []Regression
	for _, g := range h.Groups {
		if !g.Current {
			continue
		}
		for _, s := range g.Series {
			L := len(s.Points) - 1
			if L < 1 || s.Points[L].Pos != g.Runs[len(g.Runs)-1].Pos {
				continue // the newest run did not measure this cell
			}
			newest, prev := s.Points[L], s.Points[L-1]
			start := 0
			if n := len(s.Changes); n > 0 && s.Changes[n-1].Index < L {
				start = s.Changes[n-1].Index
			}
			var meds []float64
			across := false // a Server-Timing level timed on another clock
			for _, p := range s.Points[start:L] {
				meds = append(meds, p.Median)
				across = across || phasesNote(s.Metric, s.Variant, p, newest) != ""
			}
			if across {
				continue
			}
			level := stats.Median(meds)
			if level == 0 || math.IsNaN(level) {
				continue
			}
			excludes := newest.Lo > level || newest.Hi < level
			outside := newest.Median < slices.Min(meds) || newest.Median > slices.Max(meds)
			change := 100 * (newest.Median/level - 1)
			if excludes && outside && direction(s.Metric, change) == stats.Worse && math.Abs(change) >= pct {
				out = append(out, Regression{Host: g.Host, Hostname: g.Hostname, Series: s.Name(), Newest: newest, Previous: prev,
					Level: level, Pct: change})
			}
		}
	}
	return out
}
