package lab

// What profiling records of a trial's measured window (lab run --profile;
// host/profiler captures it, lab/profiles analyses it): the CPU's folded
// stacks, the GHC runtime's GC statistics, the SQL statements.

// CPUProfile is where the target's and PostgreSQL's CPU went during a
// trial's measured window: perf's cpu-clock samples as folded stacks.
type CPUProfile struct {
	// Samples is the number of samples taken; each stands for PeriodNs of CPU.
	Samples  int64
	PeriodNs int64
	// Stacks are folded stacks, most samples first, at most MaxStacks; the
	// first frame is the service ("postgrest", "postgresql"), the last the
	// function that was running.
	Stacks []Stack
	// Dropped counts the samples of the stacks left out beyond MaxStacks.
	Dropped int64
	// PerfCPUSeconds is the CPU perf record itself used during the window
	// (10 ms resolution): the profiler's own cost, besides the sampling
	// interrupts the profiled processes pay.
	PerfCPUSeconds float64
}

// MaxStacks bounds the folded stacks kept per trial.
const MaxStacks = 2000

// Stack is one folded stack and its sample count.
type Stack struct {
	Frames []string // root first
	Count  int64
}

// GHCStats are a GHC runtime's garbage collection statistics during a
// trial's measured window (from +RTS -S).
type GHCStats struct {
	BytesAllocated  int64
	AllocPerRequest float64 // bytes
	GCs             int
	MajorGCs        int // generation 1 collections
	GCCPUSeconds    float64
	CPUSeconds      float64 // the process's user CPU in the window
	// GCShare is GCCPUSeconds / CPUSeconds, in [0, 1].
	GCShare float64
	// MaxLiveBytes is the largest heap after any collection (+RTS -S's
	// Live column). After a minor collection that column counts the old
	// generation whole, garbage included: before a major collection it
	// can be twice the data kept alive. The data kept alive is Live.
	MaxLiveBytes int64
	// Live is the live heap after each major collection, at most one
	// point a second (the largest): the series a soak's growth of the
	// heap itself is read from, apart from RSS (which also holds what the
	// runtime keeps after freeing).
	Live []LiveSample
}

// LiveSample is the live heap after a major collection, T seconds into
// the measured window.
type LiveSample struct {
	T     float64 `json:"t"`
	Bytes int64   `json:"bytes"`
}

// Statement is one SQL statement's work during a trial's measured window
// (pg_stat_statements, all users of the target's database).
type Statement struct {
	Query   string // normalised text, as pg_stat_statements shows it
	Calls   int64
	TotalMs float64
	Rows    int64
}
