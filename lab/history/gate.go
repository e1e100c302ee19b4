package history

import (
	"fmt"
	"math"
	"slices"

	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// DefaultGatePct is --gate's threshold when none is given, in percent.
const DefaultGatePct = 2.0

// Firing is a series whose newest run begins a significant regression.
type Firing struct {
	Host, Hostname string
	Series         string // Series.Name()
	// Newest is the newest run; Previous the last run before it.
	Newest, Previous Point
	// Level is the previous segment's level (Rule "level": the median of
	// its runs' medians; "change point": the detector's level before).
	Level float64
	Pct   float64
	// Rule is "change point" or "level" (see Gate).
	Rule string
}

func (f Firing) String() string {
	host := ""
	if f.Hostname != "" {
		host = f.Hostname + ": "
	}
	return fmt.Sprintf("%s%s: %+.1f%% at %s (%s), after %s (%s) [%s]", host, f.Series, f.Pct,
		clean(f.Newest.ID), clean(f.Newest.Label(ByCommit)), clean(f.Previous.ID), clean(f.Previous.Label(ByCommit)), f.Rule)
}

// Gate returns the series whose newest run begins a significant
// regression of at least pct percent. Only each machine's current
// edition counts (the group holding its newest run), and in it the last
// point of each series of the history's metrics. It fires on a series
// when, in the metric's bad direction and by at least pct:
//
//   - "change point": the detector found a change point at the newest
//     run (the newest run is the first at a new level); or
//   - "level": the newest run's 95 % interval excludes the level of the
//     segment it follows (the median of the medians of the runs since the
//     last change point, at least one), and its median lies outside the
//     range of those medians, so that it is not within the run-to-run
//     scatter already seen. The change is measured against that level.
//
// A detector with a minimum segment longer than one cannot put a change
// point at the newest run, so the second rule is the one a CI gate
// usually meets; the first keeps the gate consistent with what the
// history lists.
func Gate(h *History, pct float64) []Firing {
	pct = math.Abs(pct)
	var out []Firing
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
			fire := func(level, change float64, rule string) {
				if direction(s.Metric, change) == stats.Worse && math.Abs(change) >= pct {
					out = append(out, Firing{Host: g.Host, Hostname: g.Hostname, Series: s.Name(), Newest: newest, Previous: prev,
						Level: level, Pct: change, Rule: rule})
				}
			}
			if n := len(s.Changes); n > 0 && s.Changes[n-1].Index == L {
				c := s.Changes[n-1]
				fire(c.From, c.Pct, "change point")
				continue
			}
			start := 0
			if n := len(s.Changes); n > 0 {
				start = s.Changes[n-1].Index
			}
			var meds []float64
			for _, p := range s.Points[start:L] {
				meds = append(meds, p.Median)
			}
			level := stats.Median(meds)
			if level == 0 || math.IsNaN(level) {
				continue
			}
			excludes := newest.Lo > level || newest.Hi < level
			outside := newest.Median < slices.Min(meds) || newest.Median > slices.Max(meds)
			if excludes && outside {
				fire(level, 100*(newest.Median/level-1), "level")
			}
		}
	}
	return out
}
