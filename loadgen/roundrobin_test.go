package loadgen

import (
	"net/http"
	"sync"
	"testing"
	"time"
)

// A targets file's lines share a trial's requests evenly however many
// in-flight slots the open model used: answers that each take 30 ms at
// 400 req/s keep about 12 slots busy, and each newly used slot used to
// start at the first line, so a short trial sent the first lines of the
// file far more often than the last (a CI run saw 62 %, 33 %, 5 %, 0.6 %
// and 0 % of five lines).
func TestTargetLinesShareRequestsAcrossSlots(t *testing.T) {
	var mu sync.Mutex
	seen := map[string]int{}
	s := startServer(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen[r.URL.Path]++
		mu.Unlock()
		time.Sleep(30 * time.Millisecond) // the server's work, not the test's wait
		okHandler(w, r)
	})
	var reqs []Request
	paths := []string{"/a", "/b", "/c", "/d", "/e"}
	for _, p := range paths {
		reqs = append(reqs, Request{Method: "GET", Path: p, Expect: 200})
	}
	res := run(t, Config{Target: Target{URL: s.URL}, Mix: []Weighted{{Scenario: Scenario{Name: "targets", Requests: reqs}, Weight: 1}},
		Open: &Open{Rate: 400, MaxInFlight: 200}, Duration: 500 * time.Millisecond, Threads: 1})
	mu.Lock()
	defer mu.Unlock()
	lo, hi := int(res.Summary.Requests), 0
	for _, p := range paths {
		lo, hi = min(lo, seen[p]), max(hi, seen[p])
	}
	if res.Summary.MaxInFlight < 5 || hi-lo > 1 {
		t.Errorf("%d requests over at most %d slots at once: per line %v; want each of the 5 lines within one request of the others", res.Summary.Requests, res.Summary.MaxInFlight, seen)
	}
}
