package telemetry

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// PoolMetrics is PostgREST's connection pool as its admin server reports
// it on /metrics (PostgREST 12.2+).
type PoolMetrics struct {
	T         time.Time
	Available float64 // pgrst_db_pool_available: idle connections
	Waiting   float64 // pgrst_db_pool_waiting: requests waiting for a connection
	Max       float64 // pgrst_db_pool_max: pool size
	Timeouts  float64 // pgrst_db_pool_timeouts_total: acquisitions that timed out (counter)
	// All holds every metric of the scrape by name (summed over labels).
	All map[string]float64
}

// ScrapePool fetches adminURL/metrics (adminURL like
// "http://127.0.0.1:3001") with client (nil: a client with a 2 s timeout)
// and reads the pool metrics. A missing pool metric is an error: the
// server is older than 12.2 or not PostgREST.
func ScrapePool(ctx context.Context, client *http.Client, adminURL string) (PoolMetrics, error) {
	if client == nil {
		client = &http.Client{Timeout: 2 * time.Second}
	}
	url := strings.TrimSuffix(adminURL, "/") + "/metrics"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return PoolMetrics{}, fmt.Errorf("scrape %s: %w", url, err)
	}
	resp, err := client.Do(req)
	if err != nil {
		return PoolMetrics{}, fmt.Errorf("scrape %s: %w", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return PoolMetrics{}, fmt.Errorf("scrape %s: HTTP %s", url, resp.Status)
	}
	all, err := parsePromText(resp.Body)
	if err != nil {
		return PoolMetrics{}, fmt.Errorf("scrape %s: %w", url, err)
	}
	return poolFrom(all, url)
}

func poolFrom(all map[string]float64, where string) (PoolMetrics, error) {
	p := PoolMetrics{T: time.Now(), All: all}
	var missing []string
	for name, dst := range map[string]*float64{
		"pgrst_db_pool_available":      &p.Available,
		"pgrst_db_pool_waiting":        &p.Waiting,
		"pgrst_db_pool_max":            &p.Max,
		"pgrst_db_pool_timeouts_total": &p.Timeouts,
	} {
		v, ok := all[name]
		if !ok {
			missing = append(missing, name)
		}
		*dst = v
	}
	if len(missing) > 0 {
		return p, fmt.Errorf("%s: no %s (PostgREST 12.2+ with admin-server-port exposes them)", where, strings.Join(sortedStrings(missing), ", "))
	}
	return p, nil
}
