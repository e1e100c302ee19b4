package trial

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/loadgen"
)

// An experiment's [load.limit] max_rate reaches the search: no step asks
// for more, and a target that keeps up is reported at max_rate.
func TestLoaderSearchHonoursMaxRate(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte("[]"))
	}))
	defer srv.Close()
	l := &Loader{Target: loadgen.Target{URL: srv.URL}}
	out, err := l.Load(context.Background(), lab.LoadSpec{Scenario: "RPCSimple", Seed: 1, Load: lab.Load{
		Model: lab.ModelSearch, Duration: 300 * time.Millisecond, Warmup: 50 * time.Millisecond, Timeout: 2 * time.Second,
		Limit: lab.Limit{P99: time.Second, MaxErrors: new(0.01), MaxDropped: new(0.05), MinRate: 100, MaxRate: 250},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Curve) == 0 {
		t.Fatal("no search steps")
	}
	best := 0.0
	for _, p := range out.Curve {
		if p.AskedRate > 250 {
			t.Errorf("step asked %v req/s, above max_rate 250", p.AskedRate)
		}
		if p.OK {
			best = max(best, p.AskedRate)
		}
	}
	if best != 250 {
		t.Errorf("highest passing step %v, want 250: %+v", best, out.Curve)
	}
}

// A load's CPU counts only its measured window's share: 4 s of CPU over a
// 2 s warm-up and an 8 s window is 3.2 s in the window.
func TestMeasuredShareLeavesWarmupOut(t *testing.T) {
	if got := measuredShare(4, 2*time.Second, 8*time.Second); got < 3.1999 || got > 3.2001 {
		t.Errorf("4 s of CPU, warm-up 2 s, window 8 s: %v s in the window, want 3.2", got)
	}
	if got := measuredShare(4, 0, 8*time.Second); got != 4 {
		t.Errorf("no warm-up: %v, want all 4 s", got)
	}
}
