package stats

import (
	"cmp"
	"math"
	"slices"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// Timeline is one trial on one time axis: per second of its measured part,
// the successful answers, the failed ones, the latency and the target's
// memory; the events (the experiment's actions, restarts, OOM kills, the
// target's schema cache loads) at their times; and the stalls found in it.
type Timeline struct {
	Trial              int
	Variant, Scenario  string
	Rep                int
	Points             []TimelinePoint
	Events             []TimelineEvent
	Stalls             []Stall
	BaseRate           float64 // the median second's successful answers: what a stall is measured against
	HasRSS, HasLatency bool
}

// TimelinePoint is one second of a trial's measured part.
type TimelinePoint struct {
	T       float64 // its start, in seconds since the measured part began
	OK      int64   // successful answers completed in it
	Errors  int64   // failed answers
	Dropped int64   // requests an open model dropped
	P50Ms   float64 // latency of the successful ones (0: none)
	P99Ms   float64
	MaxMs   float64 // the slowest successful one (0: none, or not recorded)
	RSS     uint64  // the target's highest resident memory sampled in it (0: none)
}

// TimelineEvent is an event at its time in the trial.
type TimelineEvent struct {
	T, Seconds float64 // since the measured part began; how long it lasted (0: a moment)
	Kind       lab.EventKind
	Detail     string
}

// Stall is a run of seconds in which the successful answers fell below
// StallShare of the trial's median second: requests that waited or failed.
type Stall struct {
	Start   float64 // the first such second's start
	Seconds float64 // how many seconds in a row
	// WorstP99Ms and WorstMs are the highest p99 and the slowest answer in
	// the stall and the second after it, where the requests it held
	// complete: about the stall's length when requests waited through it.
	WorstP99Ms, WorstMs float64
	Errors              int64 // failed answers in the stall
	Dropped             int64 // requests an open model dropped in it
}

// StallShare is the share of the median second's successful answers below
// which a second counts as stalled.
const StallShare = 0.2

// TimelineOf puts trial t on one time axis. Events are placed from
// t.Measured (see measuredStart for records from before it was kept).
func TimelineOf(t lab.Trial) Timeline {
	tl := Timeline{Trial: t.Seq, Variant: t.Variant, Scenario: t.Scenario, Rep: t.Rep}
	var oks []float64
	for _, s := range t.Series {
		// The generator stamps a second at its end.
		p := TimelinePoint{T: max(0, math.Round((s.T-1)*1e3)/1e3), OK: s.Requests - s.Errors, Errors: s.Errors, Dropped: s.Dropped,
			P50Ms: s.P50Ms, P99Ms: s.P99Ms, MaxMs: s.MaxMs}
		tl.HasLatency = tl.HasLatency || p.P99Ms > 0
		tl.Points = append(tl.Points, p)
		oks = append(oks, float64(p.OK))
	}
	for _, u := range t.Server.Samples {
		i := int(math.Floor(u.T))
		if i < 0 || i >= len(tl.Points) || u.RSS == 0 {
			continue
		}
		tl.Points[i].RSS = max(tl.Points[i].RSS, u.RSS)
		tl.HasRSS = true
	}
	if zero := measuredStart(t); !zero.IsZero() {
		for _, e := range t.Events {
			tl.Events = append(tl.Events, TimelineEvent{T: e.T.Sub(zero).Seconds(), Seconds: e.Duration.Seconds(), Kind: e.Kind, Detail: e.Detail})
		}
		slices.SortStableFunc(tl.Events, func(a, b TimelineEvent) int { return cmp.Compare(a.T, b.T) })
	}
	if len(oks) > 0 {
		tl.BaseRate = Median(oks)
	}
	tl.Stalls = stalls(tl.Points, tl.BaseRate)
	return tl
}

// measuredStart is when t's measured part began: t.Measured, or in a
// record from before it was kept, as many seconds before its end as its
// series has (late by the trial's telemetry and cleanup, a fraction of a
// second); zero when neither is known.
func measuredStart(t lab.Trial) time.Time {
	if !t.Measured.IsZero() || t.End.IsZero() {
		return t.Measured
	}
	return t.End.Add(-time.Duration(len(t.Series)) * time.Second)
}

// stalls finds the runs of seconds with fewer than StallShare × base
// successful answers; nothing stalls against a base of 0.
func stalls(ps []TimelinePoint, base float64) []Stall {
	if base <= 0 {
		return nil
	}
	var out []Stall
	var cur *Stall
	for _, p := range ps {
		low := float64(p.OK) < StallShare*base
		if low && cur == nil {
			out = append(out, Stall{Start: p.T})
			cur = &out[len(out)-1]
		}
		if !low {
			if cur != nil {
				cur.WorstP99Ms, cur.WorstMs = max(cur.WorstP99Ms, p.P99Ms), max(cur.WorstMs, p.MaxMs)
			}
			cur = nil
			continue
		}
		cur.Seconds = p.T + 1 - cur.Start
		cur.Errors, cur.Dropped = cur.Errors+p.Errors, cur.Dropped+p.Dropped
		cur.WorstP99Ms, cur.WorstMs = max(cur.WorstP99Ms, p.P99Ms), max(cur.WorstMs, p.MaxMs)
	}
	return out
}

// Timelines are the run's trials a report draws on a time axis: with
// actions or Timeline set, the first repetition of every variant and
// scenario; and every trial a server event (a restart, an OOM kill, a
// crash) happened in.
func Timelines(run *lab.Run) []Timeline {
	all := run.Experiment.Timeline || len(run.Experiment.Actions) > 0
	seen := map[[2]string]bool{}
	var out []Timeline
	for _, t := range run.Trials {
		if len(t.Series) == 0 {
			continue // nothing measured to draw
		}
		k := [2]string{t.Variant, t.Scenario}
		first := !seen[k]
		if first {
			seen[k] = true
		}
		if (all && first) || slices.ContainsFunc(t.Events, lab.Event.Fatal) {
			out = append(out, TimelineOf(t))
		}
	}
	return out
}
