package lab

import (
	"errors"
	"strings"
	"testing"
)

func TestRunNoResult(t *testing.T) {
	ok := func(seq int, v string) Trial { return Trial{Seq: seq, Variant: v, Scenario: "GETAllEmbed"} }
	bad := func(seq int, v, why string) Trial { tr := ok(seq, v); tr.Error = why; return tr }

	run := &Run{Trials: []Trial{ok(1, "base"), bad(2, "m4", "crash: main process 7 exited; exit status 251\nmore"), ok(3, "base"), bad(4, "m4", "crash: again")}}
	err := run.NoResult()
	if !errors.Is(err, ErrNoValidTrial) {
		t.Fatalf("a variant whose every trial crashed: %v, want ErrNoValidTrial", err)
	}
	msg := err.Error()
	if strings.Contains(msg, "\n") || !strings.Contains(msg, "variant m4 on GETAllEmbed: all 2 trial(s) failed (trial 2: crash: main process 7 exited; exit status 251)") ||
		strings.Contains(msg, "base") {
		t.Errorf("reason: %q", msg)
	}

	run.Trials = append(run.Trials, ok(5, "m4")) // one valid trial is a result
	if err := run.NoResult(); err != nil {
		t.Errorf("every variant has a valid trial: %v", err)
	}
	if err := (&Run{}).NoResult(); !errors.Is(err, ErrNoValidTrial) {
		t.Errorf("a run without trials: %v", err)
	}
	if err := (&Run{Interrupted: "interrupt"}).NoResult(); err != nil {
		t.Errorf("an interrupted run says so itself: %v", err)
	}
}

// A memory sweep that finds its floor is a result: the limits below it are
// expected to fail (OOM kills, not ready), so `lab run memory` exits 0; a
// memory sweep in which no limit ran is still no result, and another
// sweep's failing value still is.
func TestMemorySweepFloorIsAResult(t *testing.T) {
	trial := func(v, why string) Trial { return Trial{Variant: v, Scenario: "GETAllEmbed", Error: why} }
	run := &Run{Experiment: Experiment{Sweep: &Sweep{SweepAxis: SweepAxis{Key: "dropin.MemoryMax", Values: []Scalar{"16M", "96M"}, Baseline: "96M"}}},
		Trials: []Trial{trial("16M", "oom-kill: killed"), trial("16M", "not ready: variant 16M: not ready after 1m"), trial("96M", "")}}
	if err := run.NoResult(); err != nil {
		t.Errorf("the floor found, a limit below it failing: %v, want a result", err)
	}
	run.Trials = run.Trials[:2]
	if err := run.NoResult(); !errors.Is(err, ErrNoValidTrial) {
		t.Errorf("no limit ran: %v, want ErrNoValidTrial", err)
	}
	run.Trials = append(run.Trials, trial("96M", ""))
	run.Experiment.Sweep.Key = "postgrest.db-pool"
	if err := run.NoResult(); !errors.Is(err, ErrNoValidTrial) {
		t.Errorf("a db-pool sweep whose value never ran: %v, want ErrNoValidTrial", err)
	}
}
