//go:build !linux

package telemetry

import "time"

// threadCPU is not available here: the budget falls back to wall time.
func threadCPU() (time.Duration, bool) { return 0, false }
