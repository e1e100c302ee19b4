package telemetry

import "time"

// Sample is one reading of a source. CPUSeconds is a counter (cgroup
// usage since the cgroup was created, or the summed CPU time of the live
// process tree); the other fields are gauges summed over the source's
// processes. Procs == 0 means the service was not running (cgroup gone or
// root process exited).
//
// Detail is false when the sampler's budget skipped the per-process reads
// on this tick: RSS, Threads, FDs and CtxSwitches (and, without a cgroup,
// CPUSeconds and Procs) are then those of the last detailed sample.
type Sample struct {
	T           time.Time
	Detail      bool
	CPUSeconds  float64
	RSS         uint64 // bytes, summed VmRSS (shared memory counts once per process)
	RSSAnon     uint64 // bytes, summed RssAnon (private memory)
	CgroupMem   uint64 // bytes charged to the cgroup (v2 memory.current, v1 memory.usage_in_bytes; incl. page cache); 0 without
	CgroupPeak  uint64 // the kernel's high-water mark of CgroupMem since the cgroup was made (v2 memory.peak, v1 memory.max_usage_in_bytes); 0 without
	Threads     int
	FDs         int
	Procs       int
	CtxSwitches uint64 // voluntary + involuntary, live threads
}

// Series is the samples of one source.
type Series struct {
	Source  Source
	CPUFrom string // where CPU time came from: "cgroup:<path>" or "proc"
	// DetailEvery is how many ticks apart the per-process details were
	// read at the end (1 = every tick), as the budget required.
	DetailEvery int
	Samples     []Sample
	Errors      int    // samples with a read error (other than "not running")
	LastErr     string // the last such error
}

// Mark is a labelled instant, e.g. the start of a trial.
type Mark struct {
	Label string
	T     time.Time
}
