package reconcile

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
)

// TestWatchPoolBaselineBeforeReturn: the window's first scrape is taken
// before watchPool returns, so a request made the moment the window is open
// counts in the window. On CI the first scrape used to race the load, and
// the JWT cache's window missed the first request (3,459 lookups for 3,460
// requests).
func TestWatchPoolBaselineBeforeReturn(t *testing.T) {
	var lookups, scrapes atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		scrapes.Add(1)
		n := lookups.Load()
		fmt.Fprintf(w, "pgrst_db_pool_available 10\npgrst_db_pool_waiting 0\npgrst_db_pool_max 10\npgrst_db_pool_timeouts_total 0\n")
		fmt.Fprintf(w, "pgrst_jwt_cache_requests_total %d\npgrst_jwt_cache_hits_total %d\npgrst_jwt_cache_evictions_total 0\n", n, n)
	}))
	defer srv.Close()
	for i := range 20 {
		base := lookups.Load()
		p := watchPool(context.Background(), srv.URL)
		if scrapes.Load() == 0 {
			t.Fatalf("window %d: watchPool returned before its first scrape", i)
		}
		lookups.Add(1) // a request in the window
		p.stop(context.Background(), srv.URL)
		j := p.jwtCache()
		if j == nil || j.Requests != 1 || j.Hits != 1 {
			t.Fatalf("window %d (baseline %d): JWT cache %+v, want the window's 1 lookup", i, base, j)
		}
		scrapes.Store(0)
	}
}
