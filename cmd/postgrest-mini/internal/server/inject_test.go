package server

import (
	"runtime"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

func threadCPU(t *testing.T) time.Duration {
	t.Helper()
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_THREAD, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// The injected work costs about the CPU time asked for, measured as this
// thread's CPU time (not wall time, so other work on the machine does not
// count), and none when nothing is asked.
func TestCPUWorkAmount(t *testing.T) {
	if w := newCPUWork(0); w != nil {
		t.Fatalf("0: got %+v, want no work", w)
	}
	var none *cpuWork
	none.do() // a nil work is a no-op
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	w := newCPUWork(time.Millisecond)
	const calls = 200
	before := threadCPU(t)
	for range calls {
		w.do()
	}
	per := (threadCPU(t) - before) / calls
	t.Logf("asked 1ms per call: %d iterations, %v of thread CPU per call", w.iters, per)
	// Wide bounds: the calibration and the calls run a moment apart, and
	// this VM's speed for the same loop moves by up to 3x between moments
	// (a vCPU's stolen time counts as the thread's CPU time). What this
	// catches is a wrong unit or a calibration that is off by an order.
	if per < 250*time.Microsecond || per > 4*time.Millisecond {
		t.Errorf("1ms of injected work cost %v of CPU per call, want 0.25..4ms", per)
	}
}

// TestPreRequestSQLQuotes: a function name cannot end the DO body's
// literal or the identifier.
func TestPreRequestSQLQuotes(t *testing.T) {
	got, err := preRequestSQL(`s.f'); DROP TABLE x; --"`)
	if err != nil {
		t.Fatal(err)
	}
	want := `DO 'BEGIN PERFORM "s"."f''); DROP TABLE x; --"""(); END'`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
