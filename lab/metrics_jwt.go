package lab

// JWTCacheStats is PostgREST's JWT cache over a trial: how much each of
// pgrst_jwt_cache_requests_total (lookups), _hits_total and
// _evictions_total rose (PostgREST 14.0+, src/PostgREST/Metrics.hs at
// v14.0: a lookup is counted per request that carries a token).
type JWTCacheStats struct {
	Requests  int64
	Hits      int64
	Evictions int64
}

// JWTCacheMetrics are the JWT cache's figures, known only for trials whose
// target exposed the counters and looked a token up: a PostgREST 13 run has
// no such rows (unknown, not zero).
var JWTCacheMetrics = []Metric{
	{"jwt_cache_hit_rate", "JWT cache hits", "% of lookups", +1, jwtCacheMetric(func(j *JWTCacheStats) float64 {
		return 100 * float64(j.Hits) / float64(j.Requests)
	})},
	{"jwt_cache_evictions", "JWT cache evictions", "per lookup", -1, jwtCacheMetric(func(j *JWTCacheStats) float64 {
		return float64(j.Evictions) / float64(j.Requests)
	})},
}

// jwtCacheMetric reads a figure of the trial's JWT cache, known when the
// counters were scraped and the cache was asked at least once.
func jwtCacheMetric(f func(*JWTCacheStats) float64) func(Trial) (float64, bool) {
	return func(t Trial) (float64, bool) {
		if t.DB.JWTCache == nil || t.DB.JWTCache.Requests <= 0 {
			return 0, false
		}
		return f(t.DB.JWTCache), true
	}
}
