package loadgen

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// A server with a capacity of ~800 req/s (token bucket): beyond it every
// request waits 400 ms. Search with p99 <= 200 ms must find about 800.
// The limit sits far above the loopback's own latency, so a busy machine's
// scheduling stall (CI runs other test binaries beside this one) does not
// fail a step below capacity.
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
			time.Sleep(400 * time.Millisecond)
		}
		okHandler(w, r)
	})
	cfg := Config{Target: Target{URL: s.URL}, Mix: simpleMix("/"), Open: &Open{Rate: 200, MaxInFlight: 400},
		Duration: 500 * time.Millisecond, Warmup: 100 * time.Millisecond, Seed: 1, Timeout: 2 * time.Second}
	sr, err := Search(context.Background(), cfg, Limit{P99: 200 * time.Millisecond, MaxErrorRate: 0.001, MaxDroppedRate: 0.01}, nil)
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

// MaxSearchSteps is the longest a search can be, whatever each step's
// outcome: search itself, run on every sequence of passes and failures
// (a sequence is extended while the search asks for another step), takes
// at most that many steps, and some sequence takes exactly that many. A
// search that ramps 13 times and bisects 5 is 18 steps, not one.
func TestMaxSearchStepsIsTheLongestSearch(t *testing.T) {
	errMore := errors.New("asks for another step")
	for _, c := range []struct {
		start float64
		lim   Limit
	}{
		{100, Limit{}}, {1, Limit{}}, {200, Limit{MaxRate: 500}}, {5000, Limit{MaxRate: 5000}}, {3, Limit{MaxRate: 1e7}},
	} {
		bound := MaxSearchSteps(c.start, c.lim)
		if bound < 1 || bound > 1+searchMaxRamp+searchMaxBisect {
			t.Errorf("start %v %+v: bound %d outside 1..%d", c.start, c.lim, bound, 1+searchMaxRamp+searchMaxBisect)
		}
		longest, searches := 0, 0
		var walk func(outcomes []bool)
		walk = func(outcomes []bool) {
			i := 0
			res, err := search(context.Background(), c.start, c.lim, func(rate float64) (SearchPoint, error) {
				if c.lim.MaxRate > 0 && rate > c.lim.MaxRate {
					t.Fatalf("asked %v above max_rate %v", rate, c.lim.MaxRate)
				}
				if i == len(outcomes) {
					return SearchPoint{}, errMore
				}
				i++
				return SearchPoint{Rate: rate, Pass: outcomes[i-1]}, nil
			})
			if errors.Is(err, errMore) {
				walk(append(slices.Clone(outcomes), true))
				walk(append(slices.Clone(outcomes), false))
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			searches++
			longest = max(longest, len(res.Curve))
			if len(res.Curve) > bound {
				t.Fatalf("start %v %+v: outcomes %v took %d steps, above the bound %d", c.start, c.lim, outcomes, len(res.Curve), bound)
			}
		}
		walk(nil)
		if longest != bound || searches < 2 {
			t.Errorf("start %v %+v: the longest of %d searches took %d steps, the bound says %d", c.start, c.lim, searches, longest, bound)
		}
	}
	if got := MaxSearchSteps(100, Limit{}); got != 18 {
		t.Errorf("from 100 req/s without max_rate: %d steps at most, want 18 (13 of ramp, 5 of bisection)", got)
	}
}

// Against a target whose capacity is c (steps pass up to it), the plan
// finds c to within 5 % from below.
func TestSearchPlanFindsACapacity(t *testing.T) {
	for _, c := range []float64{0.7, 30, 799, 800, 12345, 2e7} {
		res, err := search(context.Background(), 100, Limit{}, func(rate float64) (SearchPoint, error) {
			return SearchPoint{Rate: rate, Pass: rate <= c}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		want := c
		switch {
		case c < 1:
			want = 0 // below the ramp's floor: none passed
		case c > 1e7:
			want = 100 * (1 << 12) // the ramp's last doubling
		}
		if res.Best > want || res.Best < 0.95*want {
			t.Errorf("capacity %v: best %v in %d steps, want within 5%% below %v", c, res.Best, len(res.Curve), want)
		}
	}
}
