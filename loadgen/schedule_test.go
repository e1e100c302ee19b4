package loadgen

import (
	"sort"
	"testing"
)

// n loops, each stepping through its own share of the schedule, send every
// request of the timeline once, request k at exactly k/rate.
func TestOpenScheduleSharesTheTimeline(t *testing.T) {
	const rate, end = 3000, int64(2e9)
	for _, n := range []int{1, 2, 3} {
		var ats []int64
		for id := range n {
			s := openSchedule{rate: rate, k: int64(id), step: int64(n)}
			for at := s.at(); at < end; at = s.at() {
				ats = append(ats, at)
				s.advance()
			}
		}
		sort.Slice(ats, func(i, j int) bool { return ats[i] < ats[j] })
		if len(ats) != 6000 {
			t.Fatalf("%d loops: %d requests in 2 s at 3000 req/s, want 6000", n, len(ats))
		}
		for k, at := range ats {
			if want := int64(float64(k) * 1e9 / rate); at != want {
				t.Fatalf("%d loops: request %d at %d ns, want %d", n, k, at, want)
			}
		}
	}
}

// A loop sends ahead by one interval of its own share of the schedule, at
// least 250 µs and at most 1 ms.
func TestSendAheadIsOneIntervalWithinBounds(t *testing.T) {
	for _, c := range []struct {
		rate float64
		step int64
		want int64
	}{
		{500, 1, 1_000_000}, // 2 ms interval: capped
		{1500, 1, 666_666},  // one interval
		{3000, 2, 666_666},  // two loops: each sees every other request
		{3000, 1, 333_333},  // one interval
		{20000, 1, 250_000}, // 50 µs interval: the floor
		{10, 1, 1_000_000},  // 100 ms interval: capped
	} {
		if got := sendAhead(openSchedule{rate: c.rate, step: c.step}); got != c.want {
			t.Errorf("rate %v step %d: ahead %d ns, want %d", c.rate, c.step, got, c.want)
		}
	}
}
