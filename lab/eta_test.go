package lab

import (
	"context"
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

// slowServer is a fakeServer whose Apply takes restart of the fake clock.
type slowServer struct {
	fakeServer
	clk     *fakeClock
	restart time.Duration
}

func (s *slowServer) Apply(ctx context.Context, v Variant) (Applied, error) {
	s.clk.advance(s.restart)
	return s.fakeServer.Apply(ctx, v)
}

// clockLoader takes d of the fake clock, reporting progress halfway.
type clockLoader struct {
	clk *fakeClock
	d   time.Duration
}

func (l clockLoader) Load(_ context.Context, spec LoadSpec) (LoadOutcome, error) {
	l.clk.advance(l.d / 2)
	if spec.Progress != nil {
		spec.Progress(LoadProgress{Elapsed: l.d / 2, Total: l.d})
	}
	l.clk.advance(l.d / 2)
	return LoadOutcome{Stats: LoadStats{Requests: 1000, Rate: 100, Seconds: l.d.Seconds()}}, nil
}

// positionLog records what each callback was told, and when.
type positionLog struct {
	NoProgress
	clk   *fakeClock
	start time.Time
	calls []positionCall
}

type positionCall struct {
	what string
	at   time.Duration // fake time since the start
	pos  Position
}

func (p *positionLog) add(what string, pos Position) {
	p.calls = append(p.calls, positionCall{what, p.clk.Now().Sub(p.start), pos})
}
func (p *positionLog) Applying(pos Position)             { p.add("apply", pos) }
func (p *positionLog) TrialStarted(pos Position)         { p.add("start", pos) }
func (p *positionLog) Load(pos Position, _ LoadProgress) { p.add("load", pos) }
func (p *positionLog) TrialDone(pos Position, _ Trial)   { p.add("done", pos) }

// Every callback's Elapsed is the wall time at its call, and Remaining
// counts the restarts: each trial here is a 50s restart and a 10s load.
func TestRunnerPositionsCountRealWallTime(t *testing.T) {
	clk := newFakeClock()
	e := testExperiment()
	e.Trials.Min, e.Trials.Max = 2, 2 // 2 variants x 1 scenario x 2 = 4 trials
	log := &positionLog{clk: clk, start: clk.Now()}
	r := &Runner{Server: &slowServer{clk: clk, restart: 50 * time.Second}, Loader: clockLoader{clk, 10 * time.Second},
		Progress: log, Decided: FixedRounds, Now: clk.Now}
	if _, err := r.Run(context.Background(), e); err != nil {
		t.Fatal(err)
	}
	dones := 0
	for _, c := range log.calls {
		if c.pos.Elapsed != c.at {
			t.Errorf("%s of trial %d: elapsed %v at %v of wall time", c.what, c.pos.Seq, c.pos.Elapsed, c.at)
		}
		if c.what != "done" {
			continue
		}
		dones++
		if want := time.Duration(4-dones) * time.Minute; c.pos.Remaining != want {
			t.Errorf("after trial %d: remaining %v, want %v (60s of wall time per trial)", dones, c.pos.Remaining, want)
		}
	}
	if dones != 4 {
		t.Fatalf("%d trials done", dones)
	}
	if last := log.calls[len(log.calls)-1]; last.pos.Elapsed != 4*time.Minute {
		t.Fatalf("elapsed at the end %v, want 4 x (50s restart + 10s load)", last.pos.Elapsed)
	}
}

// The efficiency model's capacity search reports positions as of each
// call too, and its one-off time (the search and the closed-model run
// after it, 10s each here) counts in Elapsed but not in the mean per trial:
// here each trial is a 50s restart, a 10s warm-up and a 10s load.
func TestEfficiencyPositionsCountRealWallTime(t *testing.T) {
	clk := newFakeClock()
	e := testExperiment()
	e.Load = Load{Model: ModelEfficiency, Duration: 10 * time.Second, Warmup: 2 * time.Second}
	e.Defaults()
	e.Trials.Min, e.Trials.Max = 2, 2
	log := &positionLog{clk: clk, start: clk.Now()}
	r := &Runner{Server: &slowServer{clk: clk, restart: 50 * time.Second}, Loader: clockLoader{clk, 10 * time.Second},
		Progress: log, Decided: FixedRounds, Now: clk.Now}
	if _, err := r.Run(context.Background(), e); err != nil {
		t.Fatal(err)
	}
	if len(log.calls) == 0 || log.calls[0].what != "load" || log.calls[0].pos.Elapsed != 55*time.Second {
		t.Fatalf("first call %+v, want the search's load at 55s", log.calls[0])
	}
	dones := 0
	for _, c := range log.calls {
		if c.pos.Elapsed != c.at {
			t.Errorf("%s of trial %d: elapsed %v at %v of wall time", c.what, c.pos.Seq, c.pos.Elapsed, c.at)
		}
		if c.what == "done" {
			dones++
			if want := time.Duration(4-dones) * 70 * time.Second; c.pos.Remaining != want {
				t.Errorf("after trial %d: remaining %v, want %v", dones, c.pos.Remaining, want)
			}
		}
	}
	if last := log.calls[len(log.calls)-1]; dones != 4 || last.pos.Elapsed != 70*time.Second+4*70*time.Second {
		t.Fatalf("%d trials, elapsed at the end %v", dones, last.pos.Elapsed)
	}
}

// A duet's two halves finish together: counted at once, the estimate is
// the same after either half is reported; counted one by one, it swung
// between 1m54s and 52s within a round (make run, 2026-12-05).
func TestETACountsADuetRoundsHalvesTogether(t *testing.T) {
	clk := newFakeClock()
	e := StartETA(clk.Now, 10*time.Second)
	clk.advance(10 * time.Second) // one round: both halves at once
	e.TrialsDone(2)
	if got := e.PerTrial(); got != 5*time.Second {
		t.Fatalf("per trial %v, want the round's 10s shared by its two halves", got)
	}
	if got := e.Remaining(12, 48); got != 50*time.Second {
		t.Fatalf("remaining %v, want 10 trials (5 rounds) x 5s", got)
	}
}

// A crashed trial's repeat counts among the trials planned from the
// crashed trial's own line on, so the estimate neither runs out early nor
// shows more trials done than planned: here each of the five trials (four
// planned and unix's first one's repeat) is a 50s restart and a 10s load.
func TestRunnerPositionsCountARepeatedTrial(t *testing.T) {
	clk := newFakeClock()
	e := testExperiment()
	e.Trials.Min, e.Trials.Max = 2, 2
	log := &positionLog{clk: clk, start: clk.Now()}
	srv := &slowServer{fakeServer: fakeServer{crashOnce: map[string]bool{"unix": true}}, clk: clk, restart: 50 * time.Second}
	r := &Runner{Server: srv, Loader: clockLoader{clk, 10 * time.Second}, Progress: log, Decided: FixedRounds, Now: clk.Now}
	run, err := r.Run(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Trials) != 5 || run.Trials[1].Error == "" {
		t.Fatalf("%d trials (want 4 + 1 repeat), the second failed: %q", len(run.Trials), run.Trials[1].Error)
	}
	dones := 0
	for _, c := range log.calls {
		if c.what != "done" {
			continue
		}
		dones++
		wantPlanned := 4
		if dones >= 2 {
			wantPlanned = 5
		}
		if c.pos.Seq != dones || c.pos.MaxTrials != wantPlanned || c.pos.MinTrials != wantPlanned {
			t.Errorf("trial %d: position %d of %d..%d, want %d of %d", dones, c.pos.Seq, c.pos.MinTrials, c.pos.MaxTrials, dones, wantPlanned)
		}
		if want := time.Duration(wantPlanned-dones) * time.Minute; c.pos.Remaining != want {
			t.Errorf("after trial %d: remaining %v, want %v", dones, c.pos.Remaining, want)
		}
	}
	if dones != 5 {
		t.Fatalf("%d trials done, want 5", dones)
	}
}

// The range runs from the earliest stop to the latest from the real time
// per trial, and does not jump when the minimum is passed: past it the
// earliest is the trial under way, the latest still the maximum.
func TestETARangeFromEarliestToLatestStop(t *testing.T) {
	clk := newFakeClock()
	e := StartETA(clk.Now, time.Second) // the guess is soon wrong
	for range 12 {
		clk.advance(9 * time.Second) // restart, gate and load: 9s a trial
		e.TrialDone()
	}
	lo, hi := e.Range(12, 48)
	if lo != 9*time.Second || hi != 36*9*time.Second {
		t.Fatalf("after 12 of 12..48 trials: %v–%v, want 9s (the next look) – 5m24s (36 trials of 9s)", lo, hi)
	}
	clk.advance(4 * time.Second)
	lo2, hi2 := e.Range(12, 48)
	if lo2 != 5*time.Second || hi2 != hi-4*time.Second {
		t.Fatalf("4s into trial 13: %v–%v, want 5s – %v", lo2, hi2, hi-4*time.Second)
	}
	e2 := StartETA(clk.Now, 10*time.Second)
	if lo, hi := e2.Range(4, 8); lo != 40*time.Second || hi != 80*time.Second {
		t.Fatalf("before any trial: %v–%v, want the guess x 4 and x 8", lo, hi)
	}
	for range 8 {
		e2.TrialDone()
	}
	if lo, hi := e2.Range(4, 8); lo != 0 || hi != 0 {
		t.Fatalf("all 8 done: %v–%v, want 0", lo, hi)
	}
}
