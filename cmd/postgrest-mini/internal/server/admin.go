package server

import (
	"fmt"

	"github.com/valyala/fasthttp"
)

// handleAdmin serves /live, /ready and /metrics (Prometheus text format).
func (s *Server) handleAdmin(ctx *fasthttp.RequestCtx) {
	switch string(ctx.Path()) {
	case "/live":
		if s.live.Load() {
			ctx.SetStatusCode(200)
		} else {
			ctx.SetStatusCode(503)
		}
	case "/ready":
		if s.live.Load() && s.Ready() {
			ctx.SetStatusCode(200)
		} else {
			ctx.SetStatusCode(503)
		}
	case "/metrics":
		ctx.SetContentType("text/plain; version=0.0.4; charset=utf-8")
		ctx.SetBody(s.metrics())
	default:
		ctx.SetStatusCode(404)
	}
}

func (s *Server) metrics() []byte {
	var took float64
	if c := s.cache.Load(); c != nil {
		took = c.Took.Seconds()
	}
	return fmt.Appendf(nil, `# HELP pgrst_db_pool_available Available connections in the pool
# TYPE pgrst_db_pool_available gauge
pgrst_db_pool_available %d
# HELP pgrst_db_pool_waiting Requests waiting to acquire a pool connection
# TYPE pgrst_db_pool_waiting gauge
pgrst_db_pool_waiting %d
# HELP pgrst_db_pool_max Max pool connections
# TYPE pgrst_db_pool_max gauge
pgrst_db_pool_max %d
# HELP pgrst_db_pool_timeouts_total The total number of pool connection timeouts
# TYPE pgrst_db_pool_timeouts_total counter
pgrst_db_pool_timeouts_total %d
# HELP pgrst_schema_cache_loads_total The total number of times the schema cache was loaded
# TYPE pgrst_schema_cache_loads_total counter
pgrst_schema_cache_loads_total{status="SUCCESS"} %d
# HELP pgrst_schema_cache_query_time_seconds The query time in seconds of the last schema cache load
# TYPE pgrst_schema_cache_query_time_seconds gauge
pgrst_schema_cache_query_time_seconds %g
`, s.pool.available(), s.pool.waiting.Load(), s.opts.Pool, s.pool.timeouts.Load(), s.loads.Load(), took)
}
