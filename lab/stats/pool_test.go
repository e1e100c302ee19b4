package stats_test

import (
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// poolRun is PoolSweep's run (db-pool 1, 2, 5, 10, 20, 50) with a slow
// line (GET /rpc/sleep_ms, 200 ms) beside a fast one (GET /artist) in
// every trial: per size, the 504s, the acquisition timeouts, the most
// requests waiting and the fast line's p99 (ms).
func poolRun(gateway []int64, timeouts []int64, waiting []int, fastP99 []float64, cheapest lab.Cheapest) *lab.Run {
	run := poolSweep([]float64{1000, 1600, 2000, 2400, 2000, 1800}, 0.02, 1, cheapest)
	sizes := map[string]int{"db-pool=1": 0, "db-pool=2": 1, "db-pool=5": 2, "db-pool=10": 3, "db-pool=20": 4, "db-pool=50": 5}
	for i := range run.Trials {
		t := &run.Trials[i]
		k := sizes[t.Variant]
		t.Load.Status = map[string]int64{"200": 1000, "504": gateway[k]}
		t.DB.Pool = &lab.PoolStats{Size: 1, Timeouts: timeouts[k], MaxWaiting: waiting[k]}
		t.Load.Endpoints = []lab.EndpointStats{
			{Method: "GET", Path: "/rpc/sleep_ms?ms=200", Status: 200, Requests: 500, P50Ms: 201, P99Ms: 900},
			{Method: "GET", Path: "/artist?artist_id=eq.{rand 1 275}", Status: 200, Requests: 500, P50Ms: fastP99[k] / 4, P99Ms: fastP99[k]},
		}
		if gateway[k] > 0 {
			t.Load.Endpoints = append(t.Load.Endpoints, lab.EndpointStats{Method: "GET", Path: "/rpc/sleep_ms?ms=200", Status: 504, Requests: gateway[k], Errors: gateway[k], P99Ms: 1000})
		}
	}
	return run
}

func poolSizing(t *testing.T, run *lab.Run) *stats.PoolSizing {
	t.Helper()
	v := stats.Compare(run, 0)
	if v.Sweep == nil || len(v.Sweep.Scenarios) != 1 || v.Sweep.Scenarios[0].Pool == nil {
		t.Fatalf("no pool sizing in %+v", v.Sweep)
	}
	return v.Sweep.Scenarios[0].Pool
}

// The recommended pool is the smallest one without a 504 or a timeout
// whose fast requests' p99 is within the bound: db-pool 5 is clean but its
// fast p99 (40 ms) is over twice the best (5 ms at 50, bound 10 ms), so
// 10 is recommended; the slow line is not counted as fast, and the
// sentence says what went wrong just below.
func TestRecommendPoolSmallestCleanWithinBound(t *testing.T) {
	for _, order := range []lab.Cheapest{"", lab.CheapestDescending} {
		ps := poolSizing(t, poolRun([]int64{300, 40, 0, 0, 0, 0}, []int64{300, 40, 0, 0, 0, 0}, []int{60, 20, 3, 0, 0, 0},
			[]float64{900, 300, 40, 8, 6, 5}, order))
		if ps.Recommended != "db-pool=10" || ps.BestP99 != 5 || ps.Bound != 10 {
			t.Fatalf("order %q: recommended %q, best %v, bound %v: %s", order, ps.Recommended, ps.BestP99, ps.Bound, ps.Sentence)
		}
		if ps.Slow != "GET /rpc/sleep_ms?ms=200" || len(ps.Fast) != 1 || !strings.HasPrefix(ps.Fast[0], "GET /artist") {
			t.Errorf("slow %q, fast %q", ps.Slow, ps.Fast)
		}
		if p := ps.Points[0]; p.Size != "1" || p.Gateway != 3000 || p.Timeouts != 3000 || p.MaxWaiting != 60 || p.FastP99 != 900 {
			t.Errorf("db-pool 1 (10 trials): %+v", p)
		}
		for _, want := range []string{"db-pool 10:", "within 10.0 ms", "5.00 ms at db-pool 50", "(8.00 ms here)", "db-pool 5 had up to 3 requests waiting and a fast p99 of 40.0 ms"} {
			if !strings.Contains(ps.Sentence, want) {
				t.Errorf("sentence lacks %q: %s", want, ps.Sentence)
			}
		}
	}
}

// A timeout disqualifies a size even when its fast requests were quick,
// and when every size has one, nothing is recommended.
func TestRecommendPoolNoneClean(t *testing.T) {
	ps := poolSizing(t, poolRun([]int64{0, 0, 0, 0, 0, 0}, []int64{9, 9, 9, 9, 9, 1}, []int{9, 9, 9, 9, 9, 1},
		[]float64{5, 5, 5, 5, 5, 5}, ""))
	if ps.Recommended != "" || !strings.HasPrefix(ps.Sentence, "no db-pool swept served this load") {
		t.Fatalf("recommended %q: %s", ps.Recommended, ps.Sentence)
	}
	ps = poolSizing(t, poolRun([]int64{0, 0, 0, 0, 0, 0}, []int64{9, 0, 0, 0, 0, 0}, []int{9, 0, 0, 0, 0, 0},
		[]float64{5, 5, 5, 5, 5, 5}, ""))
	if ps.Recommended != "db-pool=2" || !strings.Contains(ps.Sentence, "db-pool 1 had 90 acquisition timeouts") {
		t.Fatalf("recommended %q: %s", ps.Recommended, ps.Sentence)
	}
}

// Without request lines measured apart (a built-in scenario), or for
// another swept key, there is no pool sizing.
func TestPoolSizingOnlyForPoolSweepsWithLines(t *testing.T) {
	run := poolSweep([]float64{1000, 1600, 2000, 2400, 2000, 1800}, 0.02, 1, "")
	if v := stats.Compare(run, 0); v.Sweep.Scenarios[0].Pool != nil {
		t.Errorf("a sweep without endpoints got a pool sizing: %+v", v.Sweep.Scenarios[0].Pool)
	}
	run = poolRun([]int64{1, 0, 0, 0, 0, 0}, []int64{1, 0, 0, 0, 0, 0}, []int{1, 0, 0, 0, 0, 0}, []float64{5, 5, 5, 5, 5, 5}, "")
	run.Experiment.Sweep.Key = "postgresql.work_mem"
	if v := stats.Compare(run, 0); v.Sweep.Scenarios[0].Pool != nil {
		t.Errorf("a work_mem sweep got a pool sizing")
	}
}
