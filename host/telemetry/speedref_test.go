package telemetry

import (
	"context"
	"math"
	"runtime"
	"testing"
	"time"
)

// Each chain is one cycle through its whole buffer: a chase never settles
// in a small loop that would fit in a cache.
func TestSpeedRefChainsAreOneCycle(t *testing.T) {
	for _, c := range []struct {
		chain []uint64
		words int
	}{{speedRefChainLarge(), speedRefWords}, {speedRefChainSmall(), speedRefSmallWords}} {
		if len(c.chain) != c.words {
			t.Fatalf("chain of %d words, want %d", len(c.chain), c.words)
		}
		pos, steps := uint64(0), 0
		for {
			pos = c.chain[pos]
			steps++
			if pos == 0 || steps > len(c.chain) {
				break
			}
		}
		if steps != len(c.chain) {
			t.Errorf("%d words: back at the start after %d steps, want %d", c.words, steps, len(c.chain))
		}
	}
}

// One sample costs CPU time that the thread clock sees, and moves along
// the chain.
func TestSpeedRefSample(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	ns, next, ok := speedRefSample(speedRefChainLarge(), 0)
	if !ok {
		t.Fatal("no per-thread CPU clock (CLOCK_THREAD_CPUTIME_ID)")
	}
	// 10,000 dependent loads: at least ~1 ns each, far below a second.
	if ns < float64(speedRefSteps) || ns > 1e9 || next == 0 {
		t.Errorf("sample %.0f ns, next %d", ns, next)
	}
	// A clock that moves in scheduler ticks (RUSAGE_THREAD here) gives
	// whole milliseconds, and 0 for most samples: useless for the median.
	if math.Mod(ns, 1e6) == 0 {
		t.Errorf("sample %.0f ns: a whole number of milliseconds, the clock is too coarse", ns)
	}
}

// Stopped before its first tick, the reference reports no sample.
func TestSpeedRefStopBeforeFirstSample(t *testing.T) {
	r := StartSpeedRef(context.Background(), 1<<40)
	if ns, n := r.Stop(); ns != 0 || n != 0 {
		t.Errorf("Stop = %v, %d; want 0, 0", ns, n)
	}
}

// The system-call part costs CPU time that the thread clock sees: at
// least the loop itself, far below a second.
func TestSpeedRefSyscallSample(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	ns, ok := speedRefSyscallSample()
	if !ok {
		t.Fatal("no per-thread CPU clock (CLOCK_THREAD_CPUTIME_ID)")
	}
	if ns < float64(speedRefSyscalls)*10 || ns > 1e9 {
		t.Errorf("%d system calls took %.0f ns of CPU, want 10 ns to 200 µs each", speedRefSyscalls, ns)
	}
}

// The reference is the geometric mean of its parts' medians, in the range
// of the parts.
func TestSpeedRefCombinesParts(t *testing.T) {
	r := StartSpeedRef(context.Background(), time.Millisecond)
	for deadline := time.Now().Add(10 * time.Second); r.Samples() < 5 && time.Now().Before(deadline); {
		runtime.Gosched() // poll until a few samples are in
	}
	ns, n := r.Stop()
	if n < 5 {
		t.Fatalf("%d samples in 10 s at a 1 ms interval", n)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	l, _, _ := speedRefSample(speedRefChainLarge(), 0)
	c, _ := speedRefSyscallSample()
	lo, hi := min(l, c)/20, max(l, c)*20
	if !(ns > lo && ns < hi) {
		t.Errorf("reference %.0f ns from %d samples, want within [%.0f, %.0f] (parts now: chase %.0f ns, system calls %.0f ns)", ns, n, lo, hi, l, c)
	}
}
