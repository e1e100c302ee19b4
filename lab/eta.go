package lab

import "time"

// ETA estimates a run's elapsed and remaining wall time. It counts real
// wall time: a trial's share is everything since the previous trial ended
// (applying the variant, the restart, the readiness gate, the settle wait,
// the warm-up, the load and the cleanup), so that restarts slower than the
// load show in the estimate instead of being left out.
//
// It is pure bookkeeping over an injected clock; the zero value is not
// usable, start one with StartETA.
type ETA struct {
	now   func() time.Time
	start time.Time     // the run's start
	mark  time.Time     // end of the last finished trial: the next one's wall time counts from here
	guess time.Duration // per-trial estimate before any trial finished
	done  int           // finished trials
	spent time.Duration // wall time of the finished trials
}

// StartETA starts the estimate now (by the clock now). guess is the wall
// time per trial assumed until a trial has finished.
func StartETA(now func() time.Time, guess time.Duration) *ETA {
	t := now()
	return &ETA{now: now, start: t, mark: t, guess: guess}
}

// Start is when the estimate was started.
func (e *ETA) Start() time.Time { return e.start }

// Skip restarts the current trial's clock without counting the time since
// the last mark: for one-off work that later trials do not repeat (the
// efficiency model's capacity search). It still counts in Elapsed.
func (e *ETA) Skip() { e.mark = e.now() }

// TrialDone records that a trial finished now; its wall time is the time
// since the previous one finished (or since the start or the last Skip).
func (e *ETA) TrialDone() { e.TrialsDone(1) }

// TrialsDone records that n trials which ran at once (a duet's two halves)
// finished now: they share the wall time since the previous mark, so the
// mean per trial does not swing between a round's halves.
func (e *ETA) TrialsDone(n int) {
	t := e.now()
	e.spent += t.Sub(e.mark)
	e.mark = t
	e.done += n
}

// Elapsed is the wall time since the start.
func (e *ETA) Elapsed() time.Duration { return e.now().Sub(e.start) }

// PerTrial is the mean wall time of the finished trials, or the guess
// before any.
func (e *ETA) PerTrial() time.Duration {
	if e.done == 0 {
		return e.guess
	}
	return e.spent / time.Duration(e.done)
}

// Remaining estimates the wall time left: the mean per trial times the
// trials left to minTrials (to maxTrials once minTrials are done), less
// the time the trial under way has already taken (at most one mean).
func (e *ETA) Remaining(minTrials, maxTrials int) time.Duration {
	goal := minTrials
	if e.done >= minTrials {
		goal = maxTrials
	}
	left := goal - e.done
	if left <= 0 {
		return 0
	}
	per := e.PerTrial()
	current := min(e.now().Sub(e.mark), per)
	return time.Duration(left)*per - current
}

// Range estimates the wall time left to the earliest stop (minTrials, or
// the trial under way once they are done) and to the latest (maxTrials),
// as Remaining does: the mean per trial, less the current trial's time.
func (e *ETA) Range(minTrials, maxTrials int) (earliest, latest time.Duration) {
	per := e.PerTrial()
	current := min(e.now().Sub(e.mark), per)
	left := func(goal int) time.Duration {
		n := max(goal-e.done, 1) // the trial under way ends first
		return max(time.Duration(n)*per-current, 0)
	}
	if e.done >= maxTrials {
		return 0, 0
	}
	return left(minTrials), left(maxTrials)
}
