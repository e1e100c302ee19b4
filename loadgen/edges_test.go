package loadgen

import (
	"testing"
	"time"
)

// A steady hold whose very last answer met a stall (a VM hiccup, a GC)
// does not drift: the medians of the edges read the queue, not one
// answer. A backlog that grows over the window drifts by how much later
// its last answers came.
func TestLatencyDrift(t *testing.T) {
	t0 := time.Unix(0, 0)
	hold := func(n int, lat func(i int) time.Duration) *edges {
		var e edges
		for i := range n {
			l := lat(i)
			e.add(t0.Add(time.Duration(i)*time.Millisecond+l), l)
		}
		return &e
	}
	steady := hold(2000, func(i int) time.Duration {
		if i == 1999 {
			return 900 * time.Millisecond // one stalled answer, last to finish
		}
		return time.Duration(10+i%7) * time.Millisecond
	})
	if d, ok := latencyDrift([]*edges{steady}, 2000); !ok || d < -5*time.Millisecond || d > 5*time.Millisecond {
		t.Errorf("steady hold with one stall at the end: drift %v (ok %v), want about 0", d, ok)
	}
	growing := hold(2000, func(i int) time.Duration { return time.Duration(10+i/4) * time.Millisecond }) // +0.25 ms per request
	d, ok := latencyDrift([]*edges{growing}, 2000)
	if want := 475 * time.Millisecond; !ok || d < want || d > 510*time.Millisecond {
		t.Errorf("growing backlog (10 ms to 510 ms): drift %v, want about %v", d, want)
	}
	// Two shards, interleaved: the edges are the run's, not a shard's.
	a := hold(1000, func(int) time.Duration { return 10 * time.Millisecond })
	b := hold(1000, func(int) time.Duration { return 10 * time.Millisecond })
	if d, _ := latencyDrift([]*edges{a, b}, 2000); d != 0 {
		t.Errorf("two steady shards: drift %v, want 0", d)
	}
	if _, ok := latencyDrift([]*edges{{}}, 0); ok {
		t.Error("no answers: ok")
	}
}
