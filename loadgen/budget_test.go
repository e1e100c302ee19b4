package loadgen

import (
	"context"
	"runtime"
	"testing"
	"time"
)

// TestRequestPathDoesNotAllocate is the generator's allocation budget as a
// test (BenchmarkClosedLoop reports allocs/op): two closed-loop runs of
// different lengths against a trivial fasthttp server in this process, and
// the heap allocations per extra request must stay below 0.05 (run set-up,
// the server's and the runtime's own allocations cancel out between them).
// The answers carry a Server-Timing header, parsed into phase histograms.
func TestRequestPathDoesNotAllocate(t *testing.T) {
	url := fastServer(t)
	mallocs := func(n int64) uint64 {
		cfg := Config{Target: Target{URL: url}, Mix: simpleMix("/"), Closed: &Closed{Connections: 4},
			Duration: time.Minute, MaxRequests: n, Seed: 1, ServerTiming: true}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		res, err := Run(context.Background(), cfg, nil)
		runtime.ReadMemStats(&after)
		if err != nil || res.Summary.Errors != 0 || res.Summary.Requests < n || res.Summary.Timed != res.Summary.Requests {
			t.Fatalf("run of %d: %v, %d requests, errors %v", n, err, res.Summary.Requests, res.Summary.ErrorKinds)
		}
		return after.Mallocs - before.Mallocs
	}
	const short, long = 2_000, 12_000
	mallocs(short) // warm up the server's and the client's pools
	a, b := mallocs(short), mallocs(long)
	per := (float64(b) - float64(a)) / (long - short)
	t.Logf("%d allocations for %d requests, %d for %d: %.3f per extra request", a, short, b, long, per)
	if per > 0.05 {
		t.Errorf("%.3f heap allocations per request (budget 0.05)", per)
	}
}
