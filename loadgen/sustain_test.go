package loadgen

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"
)

// serialServer answers one request at a time, each after d: it can never
// serve more than 1/d requests per second, whatever it is asked.
func serialServer(t *testing.T, d time.Duration) *server {
	var mu sync.Mutex
	return startServer(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		time.Sleep(d)
		mu.Unlock()
		okHandler(w, r)
	})
}

func sustainConfig(url string) Config {
	return Config{Target: Target{URL: url}, Mix: simpleMix("/"), Open: &Open{},
		Duration: 300 * time.Millisecond, Warmup: 100 * time.Millisecond, Seed: 1, Timeout: 5 * time.Second}
}

// Issue 53: a rate counts only when it was sustained. A server that
// answers one request per 10 ms is never credited with more than 100
// req/s, measured over the real time its answers took (the step that
// asked more is answered after its window ends, and is not counted inside
// it); Sustain finds close to that, and its closed-loop sweep sees the
// same saturation.
func TestSustainNeverCreditsMoreThanSustained(t *testing.T) {
	s := serialServer(t, 10*time.Millisecond)
	lim := Limit{P95: time.Second, Hold: time.Second}
	sr, err := Sustain(context.Background(), sustainConfig(s.URL), lim, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	const capacity = 100 // req/s: the server's physics
	if sr.Best > capacity*1.01 || sr.Best < capacity*0.5 {
		t.Errorf("sustained %.1f req/s, want at most %d (and well above nothing)", sr.Best, capacity)
	}
	if sr.Closed != nil {
		t.Logf("sustained %.1f req/s; closed-loop best %.1f at %d connections", sr.Best, sr.Closed.Summary.Rate, sr.Closed.Connections)
	}
	if sr.Closed == nil || sr.Closed.Summary.Rate > capacity*1.01 {
		t.Errorf("closed-loop best %+v, want at most %d req/s", sr.Closed, capacity)
	}
	if sr.Held == nil || sr.Held.Kind != PointHold || !sr.Held.Pass || sr.Held.Rate != sr.Best {
		t.Fatalf("held point %+v, want the passing hold at %.1f", sr.Held, sr.Best)
	}
	for _, p := range sr.Curve {
		if p.Summary.Rate > capacity*1.01 {
			t.Errorf("%s step at %.0f req/s (%d connections) credited %.1f req/s (%d answers over %v), above the server's %d",
				p.Kind, p.Rate, p.Connections, p.Summary.Rate, p.Summary.Succeeded(), p.Summary.Elapsed, capacity)
		}
	}
	var at []float64
	for _, p := range sr.Curve {
		if p.Kind == PointAt {
			at = append(at, p.Share)
			if p.Rate != p.Share*sr.Best {
				t.Errorf("latency step at %.1f req/s, want %.2f of %.1f", p.Rate, p.Share, sr.Best)
			}
		}
	}
	if len(at) != len(SustainShares) {
		t.Errorf("latency measured at shares %v, want %v", at, SustainShares)
	}
	if steps, _ := SustainSteps(300*time.Millisecond, 100*time.Millisecond, lim); len(sr.Curve) > steps {
		t.Errorf("%d steps, over the bound of %d", len(sr.Curve), steps)
	}
}

// A repeat's search starts from the last limit found. When that estimate
// is stale (here five times what the server serves: the machine got
// busier, or the build slower), every step of its bracket fails; the
// search then measures afresh from the closed-loop sweep and still finds
// the server's limit, inside the bound of steps, where it used to report
// no limit at all.
func TestSustainStartsOverFromAStaleEstimate(t *testing.T) {
	s := serialServer(t, 10*time.Millisecond)
	lim := Limit{P95: time.Second, Hold: time.Second}
	sr, err := Sustain(context.Background(), sustainConfig(s.URL), lim, 500, nil)
	if err != nil {
		t.Fatal(err)
	}
	const capacity = 100 // req/s
	if sr.Best > capacity*1.01 || sr.Best < capacity*0.5 {
		t.Errorf("sustained %.1f req/s from a stale estimate of 500, want near %d", sr.Best, capacity)
	}
	if sr.Closed == nil {
		t.Errorf("no closed-loop sweep after the estimate's bracket failed")
	}
	steps, _ := SustainSteps(300*time.Millisecond, 100*time.Millisecond, lim)
	if len(sr.Curve) > steps {
		t.Errorf("%d steps, over the bound of %d", len(sr.Curve), steps)
	}
}

// A repeat's search from an estimate well below the server's limit (an
// earlier search on a colder or busier machine) climbs until a step
// fails: its limit is the server's, not the estimate plus three steps,
// so that repeated searches do not ratchet up from each other's figures.
func TestSustainClimbsFromALowEstimateToAFailure(t *testing.T) {
	s := serialServer(t, 10*time.Millisecond)
	lim := Limit{P95: time.Second, Hold: time.Second}
	sr, err := Sustain(context.Background(), sustainConfig(s.URL), lim, 55, nil)
	if err != nil {
		t.Fatal(err)
	}
	const capacity = 100 // req/s
	if sr.Best > capacity*1.01 || sr.Best < capacity*0.8 {
		t.Errorf("sustained %.1f req/s from an estimate of 55, want near %d", sr.Best, capacity)
	}
	for _, p := range sr.Curve {
		t.Logf("%s rate %.1f pass %v %s (achieved %.1f, p95 %v)", p.Kind, p.Rate, p.Pass, p.Why, p.Summary.Rate, p.Summary.P95)
	}
	failed := false
	for _, p := range sr.Curve {
		if p.Kind == PointStep && !p.Pass && p.Rate > sr.Best {
			failed = true
		}
	}
	if !failed {
		t.Errorf("no failed step above the limit of %.1f: it is a floor, not a limit", sr.Best)
	}
}

// Asked 150 req/s of a server that serves 100, a hold falls behind: its
// last answers arrive long after the second it was asked for, so it
// achieved well under 99 % of what was offered and fails, though every
// request was answered.
func TestHoldFailsWhenAnswersTrailTheWindow(t *testing.T) {
	s := serialServer(t, 10*time.Millisecond)
	lim := Limit{P95: 10 * time.Second, Hold: time.Second}
	cfg := sustainConfig(s.URL)
	cfg.Duration = time.Second
	pt, err := holdStep(context.Background(), cfg, 150, lim, nil)
	if err != nil {
		t.Fatal(err)
	}
	if pt.Pass || pt.Summary.Elapsed <= 1100*time.Millisecond || pt.Summary.Rate > 101 {
		t.Errorf("hold at 150 req/s: pass %v (%s), %d answers over %v = %.1f req/s; want a failure over more than the window, at most 100 req/s",
			pt.Pass, pt.Why, pt.Summary.Succeeded(), pt.Summary.Elapsed, pt.Summary.Rate)
	}
}
