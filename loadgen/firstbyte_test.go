package loadgen

import (
	"net/http"
	"testing"
	"time"
)

// An answer whose header comes at once and whose body follows 40 ms
// later (a server streaming a large result): its time to the first byte
// is the header's, its latency the body's end, 40 ms apart whatever the
// machine's speed; an answer sent whole has the two about equal. Both
// models.
func TestFirstByteApartFromTheLast(t *testing.T) {
	const gap = 40 * time.Millisecond
	s := startServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte("["))
		if r.URL.Path == "/streamed" {
			w.(http.Flusher).Flush()
			time.Sleep(gap) // the server's own pace, part of what is measured
		}
		w.Write([]byte("1]"))
	})
	for _, tc := range []struct {
		name string
		cfg  func(*Config)
	}{
		{"closed", func(c *Config) { c.Closed = &Closed{Connections: 2} }},
		{"open", func(c *Config) { c.Open = &Open{Rate: 40} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, path := range []string{"/streamed", "/whole"} {
				cfg := Config{Target: Target{URL: s.URL}, Mix: []Weighted{{Scenario: Scenario{Name: "s", Requests: []Request{{Method: "GET", Path: path}}}, Weight: 1}},
					Duration: 500 * time.Millisecond, Warmup: 50 * time.Millisecond, MaxRequests: 10000}
				tc.cfg(&cfg)
				sum := run(t, cfg).Summary
				if sum.Requests == 0 || sum.FirstByteP50 <= 0 || sum.FirstByteP50 > sum.P50 || sum.FirstByteMax > sum.Max+sum.Max/500 { // Max is exact, FirstByteMax a histogram's (3 digits)
					t.Fatalf("%s: first byte P50 %v max %v, last byte P50 %v max %v (%d answers)", path, sum.FirstByteP50, sum.FirstByteMax, sum.P50, sum.Max, sum.Requests)
				}
				apart := sum.P50 - sum.FirstByteP50
				if path == "/streamed" && apart < gap-2*time.Millisecond {
					t.Errorf("%s: first byte P50 %v, last %v: %v apart, want at least %v", path, sum.FirstByteP50, sum.P50, apart, gap)
				}
				if path == "/whole" && apart >= gap/2 {
					t.Errorf("%s: first byte P50 %v, last %v: %v apart, want about none", path, sum.FirstByteP50, sum.P50, apart)
				}
			}
		})
	}
}
