package lab

import "time"

// Position tells where a run is.
type Position struct {
	Seq       int // trial number, from 1
	MinTrials int // trials planned if the verdict is decided early (repeats of crashed trials included)
	MaxTrials int // trials planned at most (repeats of crashed trials included)
	Round     int // from 1
	Variant   string
	Scenario  string
	Rep       int
	Elapsed   time.Duration
	Remaining time.Duration // estimate, to the minimum or the maximum if past it
	// Earliest and Latest estimate the time left to the earliest stop the
	// sequential design allows (the minimum, or the next trial past it)
	// and to the latest (the maximum), from the real wall time per trial.
	Earliest, Latest time.Duration
}

// Progress receives what a run is doing. Implementations print it.
type Progress interface {
	Applying(p Position)
	TrialStarted(p Position)
	Load(p Position, lp LoadProgress)
	TrialDone(p Position, t Trial)
	Note(msg string)
}

// NoProgress discards progress.
type NoProgress struct{}

func (NoProgress) Applying(Position)           {}
func (NoProgress) TrialStarted(Position)       {}
func (NoProgress) Load(Position, LoadProgress) {}
func (NoProgress) TrialDone(Position, Trial)   {}
func (NoProgress) Note(string)                 {}
