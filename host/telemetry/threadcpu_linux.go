package telemetry

import (
	"time"

	"golang.org/x/sys/unix"
)

// threadCPU is the CPU time of the calling OS thread (RUSAGE_THREAD); the
// caller must be locked to its thread.
func threadCPU() (time.Duration, bool) {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_THREAD, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}

// threadClock is the CPU time of the calling OS thread from
// CLOCK_THREAD_CPUTIME_ID, which brings the running thread's time up to
// date: RUSAGE_THREAD can lag by up to a scheduler tick (4 ms at 250 Hz),
// too coarse to time a piece of work of a millisecond or two.
func threadClock() (time.Duration, bool) {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}

// cheapSyscall enters and leaves the kernel doing almost nothing there
// (getppid has no vDSO shortcut): the speed reference's system-call part.
func cheapSyscall() { _ = unix.Getppid() }
