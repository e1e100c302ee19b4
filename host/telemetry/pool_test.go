package telemetry

import (
	"context"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
)

func TestParsePromText(t *testing.T) {
	f, err := os.Open("testdata/metrics.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := parsePromText(f)
	if err != nil {
		t.Fatal(err)
	}
	if m["pgrst_schema_cache_loads_total"] != 4 || m["odd_label"] != 1 || !math.IsNaN(m["nan_metric"]) {
		t.Errorf("parsed %v", m)
	}
	for _, bad := range []string{"x{a=\"1\" 2\n", "x\n", "x 1 2 3\n", "x abc\n"} {
		if _, err := parsePromText(strings.NewReader("ok 1\n" + bad)); err == nil || !strings.Contains(err.Error(), "line 2") {
			t.Errorf("%q: error %v, want one naming line 2", bad, err)
		}
	}
}

// TestScrapePool scrapes a real HTTP server on loopback serving PostgREST
// 12.2's exposition.
func TestScrapePool(t *testing.T) {
	body, err := os.ReadFile("testdata/metrics.txt")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/metrics":
			_, _ = w.Write(body)
		case "/old/metrics":
			_, _ = w.Write([]byte("pgrst_db_pool_max 10\n"))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	ctx := context.Background()
	p, err := ScrapePool(ctx, nil, srv.URL+"/")
	if err != nil {
		t.Fatal(err)
	}
	if p.Available != 2 || p.Waiting != 5 || p.Max != 10 || p.Timeouts != 7 || p.All["pgrst_schema_cache_query_time_seconds"] != 0.012 {
		t.Errorf("pool %+v", p)
	}
	if _, err := ScrapePool(ctx, nil, srv.URL+"/old"); err == nil || !strings.Contains(err.Error(), "pgrst_db_pool_available, pgrst_db_pool_timeouts_total, pgrst_db_pool_waiting") {
		t.Errorf("missing metrics: %v", err)
	}
	if _, err := ScrapePool(ctx, nil, srv.URL+"/nope"); err == nil || !strings.Contains(err.Error(), "404") {
		t.Errorf("404: %v", err)
	}
}

// TestPoolInUseAndReallyWaiting: the waiting gauge of PostgREST 13 counts
// requests waiting for or using a connection; the derived figures split it.
func TestPoolInUseAndReallyWaiting(t *testing.T) {
	for _, c := range []struct {
		name                         string
		available, waiting, max      float64
		wantInUse, wantReallyWaiting float64
	}{
		{"idle, connections not yet opened", 1, 0, 3, 0, 0},
		{"10 busy clients, pool of 10", 0, 10, 10, 10, 0},
		{"10 clients, pool of 1", 0, 10, 1, 1, 9},
		{"3 busy, 2 idle, 5 not opened", 2, 3, 10, 3, 0},
		{"pool of 2 full, 3 queued", 0, 5, 2, 2, 3},
		{"gauges read between updates", 3, 0, 3, 0, 0},
		// Up to PostgREST 14.11 the available gauge drifts low when
		// connections fail or break (#4622): never more in use than the
		// pool has.
		{"14.11's gauge drifted below zero, 12 clients, pool of 10", -2, 12, 10, 10, 2},
		{"14.11's gauge drifted below zero, idle", -3, 0, 10, 0, 0},
	} {
		p := PoolMetrics{Available: c.available, Waiting: c.waiting, Max: c.max}
		if got := p.InUse(); got != c.wantInUse {
			t.Errorf("%s: in use %v, want %v", c.name, got, c.wantInUse)
		}
		if got := p.ReallyWaiting(); got != c.wantReallyWaiting {
			t.Errorf("%s: really waiting %v, want %v", c.name, got, c.wantReallyWaiting)
		}
	}
}

// TestPoolJWTCache: PostgREST 14.0+'s JWT cache counters are read from the
// scrape when all three are there; without them (13.x, postgrest-mini)
// they are unknown.
func TestPoolJWTCache(t *testing.T) {
	p := PoolMetrics{All: map[string]float64{"pgrst_jwt_cache_requests_total": 120, "pgrst_jwt_cache_hits_total": 110,
		"pgrst_jwt_cache_evictions_total": 3}}
	if r, h, e, ok := p.JWTCache(); !ok || r != 120 || h != 110 || e != 3 {
		t.Errorf("JWTCache = %v, %v, %v, %v; want 120, 110, 3, true", r, h, e, ok)
	}
	delete(p.All, "pgrst_jwt_cache_evictions_total")
	if _, _, _, ok := p.JWTCache(); ok {
		t.Error("JWTCache known without the evictions counter")
	}
	if _, _, _, ok := (PoolMetrics{All: map[string]float64{"pgrst_db_pool_max": 10}}).JWTCache(); ok {
		t.Error("JWTCache known for a PostgREST 13 scrape")
	}
}
