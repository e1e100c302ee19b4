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
