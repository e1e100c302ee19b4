package stats_test

import (
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// A trial whose answers stop for seconds 4-6 and fail in second 9: two
// stalls at their seconds, the held requests' latency in the second after
// the first, RSS per second from the 10 Hz samples, and the action placed
// from the measured start.
func TestTimelineFindsStallsAndPlacesEvents(t *testing.T) {
	m := time.Date(2026, 12, 5, 14, 0, 0, 0, time.UTC)
	tr := lab.Trial{Seq: 3, Variant: "v", Scenario: "s", Measured: m}
	for i := range 12 {
		s := lab.Second{T: float64(i + 1), Requests: 500, P50Ms: 2, P99Ms: 8, MaxMs: 12} // stamped at its end
		switch i {
		case 4, 5, 6:
			s.Requests, s.P50Ms, s.P99Ms, s.MaxMs = 0, 0, 0, 0
		case 7:
			s.MaxMs = 3010
		case 9:
			s.Errors = 480
		}
		tr.Series = append(tr.Series, s)
	}
	for i := range 120 {
		tr.Server.Samples = append(tr.Server.Samples, lab.UsageSample{T: float64(i) / 10, RSS: uint64(1000 + i)})
	}
	tr.Events = []lab.Event{{T: m.Add(4020 * time.Millisecond), Kind: lab.EventAction, Detail: "lock", Duration: 3 * time.Second}}
	tl := stats.TimelineOf(tr)
	want := []stats.Stall{{Start: 4, Seconds: 3, WorstP99Ms: 8, WorstMs: 3010}, {Start: 9, Seconds: 1, WorstP99Ms: 8, WorstMs: 12, Errors: 480}}
	if len(tl.Stalls) != len(want) {
		t.Fatalf("stalls %+v, want %+v", tl.Stalls, want)
	}
	for i := range want {
		if tl.Stalls[i] != want[i] {
			t.Errorf("stall %d = %+v, want %+v", i, tl.Stalls[i], want[i])
		}
	}
	if tl.BaseRate != 500 {
		t.Errorf("base rate %v, want 500", tl.BaseRate)
	}
	if got := tl.Points[2].RSS; got != 1029 {
		t.Errorf("second 2's RSS %d, want the highest of its samples, 1029", got)
	}
	if len(tl.Events) != 1 || tl.Events[0].T < 4.01 || tl.Events[0].T > 4.03 || tl.Events[0].Seconds != 3 {
		t.Errorf("events %+v, want the action at 4.02 s for 3 s", tl.Events)
	}
}

// A steady trial has no stall, and a run with actions draws the first
// repetition of each variant and scenario.
func TestTimelinesChoosesTrials(t *testing.T) {
	steady := func(seq, rep int) lab.Trial {
		tr := lab.Trial{Seq: seq, Rep: rep, Variant: "v", Scenario: "s"}
		for i := range 5 {
			tr.Series = append(tr.Series, lab.Second{T: float64(i + 1), Requests: 100})
		}
		return tr
	}
	run := &lab.Run{Trials: []lab.Trial{steady(1, 1), steady(2, 2)}}
	if got := stats.Timelines(run); len(got) != 0 {
		t.Errorf("no actions, no events: %d timelines, want 0", len(got))
	}
	run.Experiment.Actions = []lab.Action{{Do: lab.ActionNotify}}
	got := stats.Timelines(run)
	if len(got) != 1 || got[0].Trial != 1 || len(got[0].Stalls) != 0 {
		t.Errorf("timelines %+v, want trial 1's alone, without stalls", got)
	}
}
