package lab

import (
	"sync"
	"testing"
	"time"
)

// fakeClock is a clock tests move by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func TestETAGuessesBeforeTheFirstTrial(t *testing.T) {
	clk := newFakeClock()
	e := StartETA(clk.Now, 10*time.Second)
	if got := e.Remaining(4, 8); got != 40*time.Second {
		t.Fatalf("remaining %v, want 4 trials x the 10s guess", got)
	}
	clk.advance(3 * time.Second)
	if got := e.Elapsed(); got != 3*time.Second {
		t.Fatalf("elapsed %v", got)
	}
	if got := e.Remaining(4, 8); got != 37*time.Second {
		t.Fatalf("remaining %v, want 40s less the 3s the first trial has taken", got)
	}
}

// A trial's wall time is everything since the previous one ended: a
// restart that takes longer than the load counts.
func TestETACountsTheRestartBeforeEachTrial(t *testing.T) {
	clk := newFakeClock()
	e := StartETA(clk.Now, 10*time.Second)
	for range 2 {
		clk.advance(50 * time.Second) // apply, restart, readiness gate, settle
		clk.advance(10 * time.Second) // the load
		e.TrialDone()
	}
	if got := e.PerTrial(); got != time.Minute {
		t.Fatalf("per trial %v, want the 60s of wall time, not the 10s of load", got)
	}
	if got := e.Elapsed(); got != 2*time.Minute {
		t.Fatalf("elapsed %v", got)
	}
	if got := e.Remaining(4, 8); got != 2*time.Minute {
		t.Fatalf("remaining %v, want 2 trials left to the minimum x 60s", got)
	}
}

func TestETAGoesToTheMaximumOnceTheMinimumIsDone(t *testing.T) {
	clk := newFakeClock()
	e := StartETA(clk.Now, time.Second)
	for range 4 {
		clk.advance(20 * time.Second)
		e.TrialDone()
	}
	if got := e.Remaining(4, 8); got != 80*time.Second {
		t.Fatalf("remaining %v, want 4 trials left to the maximum x 20s", got)
	}
	for range 4 {
		clk.advance(20 * time.Second)
		e.TrialDone()
	}
	if got := e.Remaining(4, 8); got != 0 {
		t.Fatalf("remaining %v at the maximum", got)
	}
}

// The trial under way takes off at most one mean: a slow one does not
// make the estimate negative or eat the other trials' share.
func TestETASubtractsAtMostOneTrialUnderWay(t *testing.T) {
	clk := newFakeClock()
	e := StartETA(clk.Now, time.Second)
	clk.advance(10 * time.Second)
	e.TrialDone()
	clk.advance(4 * time.Second)
	if got := e.Remaining(3, 3); got != 16*time.Second {
		t.Fatalf("remaining %v, want 2x10s less 4s", got)
	}
	clk.advance(time.Minute)
	if got := e.Remaining(3, 3); got != 10*time.Second {
		t.Fatalf("remaining %v, want one trial's 10s after this", got)
	}
}

func TestETASkipLeavesOneOffWorkOutOfTheMean(t *testing.T) {
	clk := newFakeClock()
	e := StartETA(clk.Now, time.Second)
	clk.advance(time.Minute) // a capacity search
	e.Skip()
	clk.advance(10 * time.Second)
	e.TrialDone()
	if got := e.PerTrial(); got != 10*time.Second {
		t.Fatalf("per trial %v", got)
	}
	if got := e.Elapsed(); got != 70*time.Second {
		t.Fatalf("elapsed %v, want the search included", got)
	}
}
