package track

import (
	"fmt"
	"time"
)

// ETA estimates the time left from the builds and runs measured so far:
// builds left × the mean time of a real (uncached) build + runs left ×
// the mean time of a run. A cached build costs nothing and does not count
// in the mean. The zero value knows nothing yet.
type ETA struct {
	buildTime, runTime time.Duration
	builds, runs       int
}

// Built records one build that took d; cached ones cost nothing.
func (e *ETA) Built(d time.Duration, cached bool) {
	if !cached {
		e.buildTime += d
		e.builds++
	}
}

// Ran records one run that took d.
func (e *ETA) Ran(d time.Duration) {
	e.runTime += d
	e.runs++
}

// Left is the time builds and runs still to do will take; ok is false
// while no run has been timed (nothing to go on). Builds while no build
// was timed count as nothing (they may all be cached).
func (e *ETA) Left(builds, runs int) (left time.Duration, ok bool) {
	if e.runs == 0 {
		return 0, false
	}
	if e.builds > 0 {
		left += time.Duration(builds) * (e.buildTime / time.Duration(e.builds))
	}
	return left + time.Duration(runs)*(e.runTime/time.Duration(e.runs)), true
}

// Line is one progress line: "commit 3/8 abc1234 (subject): running…,
// 2m10s elapsed, ~5m left".
func (e *ETA) Line(i, n int, c Commit, phase string, elapsed time.Duration, buildsLeft, runsLeft int) string {
	return e.LineOf("commit", i, n, c, phase, elapsed, buildsLeft, runsLeft)
}

// LineOf is Line for another loop's unit: "step 2/4 abc1234 (subject):
// measuring…, 40s elapsed, ~1m20s left" (lab bisect).
func (e *ETA) LineOf(unit string, i, n int, c Commit, phase string, elapsed time.Duration, buildsLeft, runsLeft int) string {
	s := fmt.Sprintf("%s %d/%d %s: %s…, %s elapsed", unit, i, n, c.Label(), phase, round(elapsed))
	if left, ok := e.Left(buildsLeft, runsLeft); ok {
		s += fmt.Sprintf(", ~%s left", round(left))
	}
	return s
}

// round shows seconds under a minute, else whole seconds.
func round(d time.Duration) time.Duration {
	if d < time.Minute {
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Second)
}
