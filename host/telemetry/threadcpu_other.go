//go:build !linux

package telemetry

import "time"

// threadCPU is not available here: the budget falls back to wall time.
func threadCPU() (time.Duration, bool) { return 0, false }

// threadClock is not available here: the speed reference takes no sample.
func threadClock() (time.Duration, bool) { return 0, false }

// cheapSyscall is a no-op here (the speed reference takes no sample).
func cheapSyscall() {}
