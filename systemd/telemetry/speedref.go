package telemetry

import (
	"context"
	"runtime"
	"slices"
	"sync"
	"time"
)

// The speed reference is a fixed piece of work, a chase of dependent
// loads through a buffer larger than a core's private caches, timed in
// the CPU time of its own thread. On a shared VM the memory system's
// speed drifts with the neighbours' load (by ±7 % over tens of seconds on
// the 2-core machines the lab is built on), and the CPU that PostgREST and
// PostgreSQL spend per request drifts with it. Sampled during a trial's
// window it measures how fast the machine was then, so that verdicts can
// take that drift out of the comparison (lab/stats, "speed adjustment").
const (
	speedRefWords = 1 << 20 // 8 MiB of uint64: beyond L2, like a backend's working set
	speedRefSteps = 10_000  // loads per sample: about 1.5-2 ms of CPU here
	// SpeedRefInterval is how often the reference is sampled: at 10 Hz it
	// costs about 2 % of one core.
	SpeedRefInterval = 100 * time.Millisecond
)

var (
	speedRefOnce sync.Once
	speedRefBuf  []uint64
)

// speedRefChain is a single cycle through the buffer (Sattolo's
// algorithm with a fixed seed), so every load depends on the previous one
// and the prefetcher cannot guess the next address.
func speedRefChain() []uint64 {
	speedRefOnce.Do(func() {
		b := make([]uint64, speedRefWords)
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
		speedRefBuf = b
	})
	return speedRefBuf
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

// SpeedRef samples the speed reference until Stop.
type SpeedRef struct {
	cancel context.CancelFunc
	done   chan []float64
}

// StartSpeedRef starts sampling the reference every interval (<= 0:
// SpeedRefInterval) on a goroutine locked to its own OS thread.
func StartSpeedRef(ctx context.Context, interval time.Duration) *SpeedRef {
	if interval <= 0 {
		interval = SpeedRefInterval
	}
	ctx, cancel := context.WithCancel(ctx)
	r := &SpeedRef{cancel: cancel, done: make(chan []float64, 1)}
	chain := speedRefChain()
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		var ns []float64
		defer func() { r.done <- ns }()
		tk := time.NewTicker(interval)
		defer tk.Stop()
		pos := uint64(0)
		for {
			select {
			case <-ctx.Done():
				return
			case <-tk.C:
			}
			var d float64
			var ok bool
			if d, pos, ok = speedRefSample(chain, pos); ok {
				ns = append(ns, d)
			}
		}
	}()
	return r
}

// Stop ends the sampling and returns the median CPU time of one sample in
// nanoseconds, and the number of samples; 0, 0 when none was taken (e.g.
// a window shorter than the interval, or no per-thread CPU clock).
func (r *SpeedRef) Stop() (medianNs float64, samples int) {
	r.cancel()
	ns := <-r.done
	if len(ns) == 0 {
		return 0, 0
	}
	slices.Sort(ns)
	m := ns[len(ns)/2]
	if len(ns)%2 == 0 {
		m = (ns[len(ns)/2-1] + ns[len(ns)/2]) / 2
	}
	return m, len(ns)
}
