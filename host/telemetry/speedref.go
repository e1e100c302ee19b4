package telemetry

import (
	"context"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pgrst-lab/pgrst-lab/internal/median"
)

// The speed reference is a fixed piece of work timed in the CPU time of
// its own thread. On a shared VM the machine's speed drifts with the
// neighbours' load (by ±7 % over tens of seconds on the 2-core machines
// the lab is built on), and the CPU that PostgREST and PostgreSQL spend
// per request drifts with it. Sampled during a trial's window it measures
// how fast the machine was then, so that verdicts can take that drift out
// of the comparison (lab/stats, "speed adjustment").
//
// The work has three parts, each timed on its own: a chase of dependent
// loads through 8 MiB (beyond L2, like a backend's working set), one
// through 1 MiB (the caches a request's code and data mostly live in),
// and a run of cheap system calls (the kernel entries and exits a request
// makes by the dozen). The reference is the geometric mean of their
// median times: on real PostgREST 13 each part alone followed the CPU per
// request with a per-trial correlation of 0.78-0.89, and their mean took
// 14-32 % more out of the per-round scatter than the 8 MiB chase alone
// (two 12- and 23-round socket-vs-tcp runs; docs/notebook/2026-12-01-speed-reference.md).
const (
	speedRefWords      = 1 << 20 // 8 MiB of uint64
	speedRefSmallWords = 1 << 17 // 1 MiB of uint64
	speedRefSteps      = 10_000  // loads per chase: about 1.5-2 ms (8 MiB) and 1 ms (1 MiB) here
	speedRefSyscalls   = 5_000   // system calls per sample: about 0.5 ms here
	// SpeedRefInterval is how often the reference is sampled: at 10 Hz it
	// costs about 3-4 % of one core.
	SpeedRefInterval = 100 * time.Millisecond
)

// speedRefParts is the number of timed parts of one sample.
const speedRefParts = 3

var (
	speedRefChainLarge = sync.OnceValue(func() []uint64 { return sattolo(speedRefWords) })
	speedRefChainSmall = sync.OnceValue(func() []uint64 { return sattolo(speedRefSmallWords) })
)

// sattolo is a single cycle through n words (Sattolo's algorithm with a
// fixed seed), so every load depends on the previous one and the
// prefetcher cannot guess the next address.
func sattolo(n int) []uint64 {
	b := make([]uint64, n)
	for i := range b {
		b[i] = uint64(i)
	}
	x := uint64(0x9E3779B97F4A7C15)
	for i := len(b) - 1; i > 0; i-- {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		j := int(x % uint64(i))
		b[i], b[j] = b[j], b[i]
	}
	return b
}

// speedRefSample times speedRefSteps loads along chain from pos, in CPU
// nanoseconds of the calling thread (locked to it), and returns where the
// chase stopped; ok is false without a per-thread CPU clock.
func speedRefSample(chain []uint64, pos uint64) (ns float64, next uint64, ok bool) {
	t0, ok0 := threadClock()
	for range speedRefSteps {
		pos = chain[pos]
	}
	t1, ok1 := threadClock()
	return float64(t1 - t0), pos, ok0 && ok1 && t1 > t0
}

// speedRefSyscallSample times speedRefSyscalls cheap system calls in CPU
// nanoseconds of the calling thread.
func speedRefSyscallSample() (ns float64, ok bool) {
	t0, ok0 := threadClock()
	for range speedRefSyscalls {
		cheapSyscall()
	}
	t1, ok1 := threadClock()
	return float64(t1 - t0), ok0 && ok1 && t1 > t0
}

// SpeedRef samples the speed reference until Stop.
type SpeedRef struct {
	cancel context.CancelFunc
	done   chan [speedRefParts][]float64
	taken  atomic.Int64 // samples so far
}

// StartSpeedRef starts sampling the reference every interval (<= 0:
// SpeedRefInterval) on a goroutine locked to its own OS thread.
func StartSpeedRef(ctx context.Context, interval time.Duration) *SpeedRef {
	if interval <= 0 {
		interval = SpeedRefInterval
	}
	ctx, cancel := context.WithCancel(ctx)
	r := &SpeedRef{cancel: cancel, done: make(chan [speedRefParts][]float64, 1)}
	large, small := speedRefChainLarge(), speedRefChainSmall()
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		var parts [speedRefParts][]float64
		defer func() { r.done <- parts }()
		tk := time.NewTicker(interval)
		defer tk.Stop()
		var posL, posS uint64
		for {
			select {
			case <-ctx.Done():
				return
			case <-tk.C:
			}
			l, nextL, okL := speedRefSample(large, posL)
			s, nextS, okS := speedRefSample(small, posS)
			c, okC := speedRefSyscallSample()
			posL, posS = nextL, nextS
			if okL && okS && okC { // a sample counts whole or not at all
				parts[0], parts[1], parts[2] = append(parts[0], l), append(parts[1], s), append(parts[2], c)
				r.taken.Add(1)
			}
		}
	}()
	return r
}

// Samples is the number of samples taken so far.
func (r *SpeedRef) Samples() int { return int(r.taken.Load()) }

// Stop ends the sampling and returns the reference in nanoseconds (the
// geometric mean of the parts' median CPU times) and the number of
// samples; 0, 0 when none was taken (e.g. a window shorter than the
// interval, or no per-thread CPU clock).
func (r *SpeedRef) Stop() (ns float64, samples int) {
	r.cancel()
	parts := <-r.done
	if len(parts[0]) == 0 {
		return 0, 0
	}
	var logSum float64
	for _, p := range parts {
		logSum += math.Log(median.Of(p))
	}
	return math.Exp(logSum / speedRefParts), len(parts[0])
}
