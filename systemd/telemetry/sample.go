package telemetry

import "time"

// Sample is one reading of a source. CPUSeconds is a counter (cgroup
// usage since the cgroup was created, or the summed CPU time of the live
// process tree); the other fields are gauges summed over the source's
// processes. Procs == 0 means the service was not running (cgroup gone or
// root process exited).
type Sample struct {
	T           time.Time
	CPUSeconds  float64
	RSS         uint64 // bytes
	Threads     int
	FDs         int
	Procs       int
	CtxSwitches uint64 // voluntary + involuntary, live threads
}

// Series is the samples of one source.
type Series struct {
	Source  Source
	CPUFrom string // where CPU time came from: "cgroup:<path>" or "proc"
	Samples []Sample
	Errors  int    // samples with a read error (other than "not running")
	LastErr string // the last such error
}

// Mark is a labelled instant, e.g. the start of a trial.
type Mark struct {
	Label string
	T     time.Time
}
