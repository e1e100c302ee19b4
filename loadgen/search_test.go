package loadgen

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// A server with a capacity of ~800 req/s (token bucket): beyond it every
// request waits 100 ms. Search with p99 <= 50 ms must find about 800.
func TestSearchFindsCapacity(t *testing.T) {
	var mu sync.Mutex
	tokens, last := 20.0, time.Now()
	s := startServer(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		now := time.Now()
		tokens = min(20, tokens+now.Sub(last).Seconds()*800)
		last = now
		ok := tokens >= 1
		if ok {
			tokens--
		}
		mu.Unlock()
		if !ok {
			time.Sleep(100 * time.Millisecond)
		}
		okHandler(w, r)
	})
	cfg := Config{Target: Target{URL: s.URL}, Mix: simpleMix("/"), Open: &Open{Rate: 200, MaxInFlight: 400},
		Duration: 500 * time.Millisecond, Warmup: 100 * time.Millisecond, Seed: 1, Timeout: 2 * time.Second}
	sr, err := Search(context.Background(), cfg, Limit{P99: 50 * time.Millisecond, MaxErrorRate: 0.001, MaxDroppedRate: 0.01}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sr.Best < 500 || sr.Best > 1000 {
		t.Errorf("best %v, want about 800", sr.Best)
	}
	pass, fail := 0, 0
	for _, p := range sr.Curve {
		if p.Pass {
			pass++
		} else if strings.Contains(p.Why, "p99") {
			fail++
		}
	}
	if pass < 2 || fail < 1 || len(sr.Curve) > searchMaxRamp+searchMaxBisect+1 {
		t.Errorf("curve: %d passing, %d failing on p99, %d steps", pass, fail, len(sr.Curve))
	}
}

func TestLimitCheck(t *testing.T) {
	l := Limit{P99: 50 * time.Millisecond, MaxErrorRate: 0.001, MaxDroppedRate: 0.01}
	ok := Summary{Requests: 1000, P99: 10 * time.Millisecond, Rate: 100, TargetRate: 100}
	if why := l.Check(ok); why != "" {
		t.Errorf("ok summary failed: %s", why)
	}
	for _, tc := range []struct {
		mod  func(*Summary)
		want string
	}{
		{func(s *Summary) { s.P99 = 60 * time.Millisecond }, "p99"},
		{func(s *Summary) { s.Errors = 2 }, "errors"},
		{func(s *Summary) { s.Dropped = 20 }, "dropped"},
		{func(s *Summary) { s.Rate = 90 }, "rate"},
		{func(s *Summary) { s.Requests = 0 }, "no requests"},
	} {
		s := ok
		tc.mod(&s)
		if why := l.Check(s); !strings.Contains(why, tc.want) {
			t.Errorf("want %q, got %q", tc.want, why)
		}
	}
}

// With MaxRate the search never asks for more, and a target that meets the
// limit there is reported as meeting it at MaxRate.
func TestSearchStopsAtMaxRate(t *testing.T) {
	s := startServer(t, okHandler)
	cfg := Config{Target: Target{URL: s.URL}, Mix: simpleMix("/"), Open: &Open{Rate: 200, MaxInFlight: 400},
		Duration: 300 * time.Millisecond, Warmup: 50 * time.Millisecond, Seed: 1, Timeout: 2 * time.Second}
	sr, err := Search(context.Background(), cfg, Limit{P99: time.Second, MaxErrorRate: 0.01, MaxDroppedRate: 0.05, MaxRate: 500}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range sr.Curve {
		if p.Rate > 500 {
			t.Errorf("asked for %v req/s, above max_rate 500", p.Rate)
		}
	}
	if sr.Best != 500 {
		t.Errorf("best %v, want 500 (the max_rate, met by a fast server)", sr.Best)
	}
	if len(sr.Curve) != 3 { // 200, 400, 500
		t.Errorf("%d steps, want 3 (200, 400, 500): %+v", len(sr.Curve), sr.Curve)
	}
}
