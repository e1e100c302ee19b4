package telemetry

import (
	"context"
	"math"
	"runtime"
	"testing"
)

// The chain is one cycle through the whole buffer: a chase never settles
// in a small loop that would fit in a cache.
func TestSpeedRefChainIsOneCycle(t *testing.T) {
	chain := speedRefChain()
	if len(chain) != speedRefWords {
		t.Fatalf("chain of %d words, want %d", len(chain), speedRefWords)
	}
	pos, steps := uint64(0), 0
	for {
		pos = chain[pos]
		steps++
		if pos == 0 || steps > len(chain) {
			break
		}
	}
	if steps != len(chain) {
		t.Errorf("back at the start after %d steps, want %d", steps, len(chain))
	}
}

// One sample costs CPU time that the thread clock sees, and moves along
// the chain.
func TestSpeedRefSample(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	ns, next, ok := speedRefSample(speedRefChain(), 0)
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
