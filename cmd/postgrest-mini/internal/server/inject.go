package server

import (
	"runtime"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// cpuWork does a fixed amount of CPU work per call: the lab's way to inject
// a known slowdown into the reference server (PGRST_LAB_INJECT_CPU_US), so that
// `lab calibrate` can measure which effects an experiment detects. The
// amount is a number of iterations, calibrated once at start to take the
// asked CPU time on this machine; afterwards it does not depend on load
// (a wall-clock spin would burn less CPU when descheduled).
type cpuWork struct{ iters int }

// sink keeps the work from being optimised away.
var sink atomic.Uint64

// spin runs n iterations of a cheap integer mix.
func spin(n int) uint64 {
	x := uint64(0x9e3779b97f4a7c15)
	for i := 0; i < n; i++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	return x
}

// newCPUWork calibrates iterations for d: the fastest of several runs,
// timed by this thread's CPU clock (time spent descheduled by other work
// does not count, as a wall clock would count it), gives the rate.
func newCPUWork(d time.Duration) *cpuWork {
	if d <= 0 {
		return nil
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	const probe = 200_000
	best := time.Duration(1<<63 - 1)
	for range 7 {
		start := threadCPUTime()
		sink.Add(spin(probe))
		if el := threadCPUTime() - start; el > 0 && el < best {
			best = el
		}
	}
	iters := int(float64(probe) * float64(d) / float64(best))
	return &cpuWork{iters: max(iters, 1)}
}

// threadCPUTime is the calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID),
// or the wall clock where that clock cannot be read.
func threadCPUTime() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return time.Duration(time.Now().UnixNano())
	}
	return time.Duration(ts.Nano())
}

func (w *cpuWork) do() {
	if w != nil {
		sink.Add(spin(w.iters))
	}
}
