package postgrest

// MetricInfo is one metric PostgREST's admin server publishes on
// /metrics: since which version, and what it means there (Meaning holds
// the changes by version).
type MetricInfo struct {
	Name    string
	Since   string
	Meaning string
	Source  string
}

// metrics is the /metrics table (src/PostgREST/Metrics.hs at each tag;
// src/library/PostgREST/Metrics.hs in v16). Checked against each real
// binary's /metrics (host/telemetry's TestTrialWindow: 13.0.8 and 14.17);
// v16's ghc_* are read from its source.
var metrics = []MetricInfo{
	{"pgrst_db_pool_available", "12.2", "idle connections: a gauge moved by connection events up to 14.11 (it drifts low, even below 0, when connections fail); connected minus in use from 14.12 and 16.0", "v14.12 CHANGELOG (#4622, ed2dc1fe8)"},
	{"pgrst_db_pool_waiting", "12.2", "requests waiting for OR using a connection: raised before asking the pool, lowered after the session (usePool), in every version", "AppState.hs usePool at v13.0.8, v14.17; AppState/Pool.hs at v16.2"},
	{"pgrst_db_pool_max", "12.2", "the pool's size (db-pool)", "Metrics.hs v13.0.8"},
	{"pgrst_db_pool_timeouts_total", "12.2", "acquisitions that timed out (504, PGRST003)", "Metrics.hs v13.0.8"},
	{"pgrst_schema_cache_loads_total", "12.2", "schema cache loads, labelled SUCCESS or FAIL", "Metrics.hs v13.0.8"},
	{"pgrst_schema_cache_query_time_seconds", "12.2", "the last schema cache query's duration", "Metrics.hs v13.0.8"},
	{"pgrst_jwt_cache_requests_total", "14.0", "JWT cache lookups", "v14.0 CHANGELOG (#4084)"},
	{"pgrst_jwt_cache_hits_total", "14.0", "JWT cache hits", "v14.0 CHANGELOG (#4084)"},
	{"pgrst_jwt_cache_evictions_total", "14.0", "JWT cache evictions", "v14.0 CHANGELOG (#4084)"},
}

// GHCMetricsSince is the version whose /metrics adds the GHC runtime's
// ghc_* metrics, when the process runs with +RTS -T (v16.0 CHANGELOG,
// #4862). The lab reads the runtime's statistics from its -S file on
// every version instead (lab/metrics_ghc.go).
const GHCMetricsSince = "16.0"

// Metrics lists the pgrst_* metrics of PostgREST version v (every one
// when v is "").
func Metrics(v string) []MetricInfo {
	var out []MetricInfo
	for _, m := range metrics {
		if v == "" || compareVersions(m.Since, v) <= 0 {
			out = append(out, m)
		}
	}
	return out
}
