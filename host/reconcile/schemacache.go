package reconcile

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/pgrst-lab/pgrst-lab/host/telemetry"
	"github.com/pgrst-lab/pgrst-lab/lab"
)

// PostgREST's own figures of its schema cache (admin server, /metrics,
// PostgREST 12.2+): loads so far and the last load's query time.
const (
	metricSchemaCacheLoads = "pgrst_schema_cache_loads_total"
	metricSchemaCacheTime  = "pgrst_schema_cache_query_time_seconds"
)

// schemaCachePoll is how often /metrics is read while a reload is awaited:
// the reload's time is known to this much.
const schemaCachePoll = 25 * time.Millisecond

// schemaCacheLoadCount is the target's schema cache loads so far, -1 when
// its /metrics does not say (no admin server, not PostgREST 12.2+).
func (l *Server) schemaCacheLoadCount(ctx context.Context) float64 {
	all, ok := l.metrics(ctx)
	if !ok {
		return -1
	}
	if n, ok := all[metricSchemaCacheLoads]; ok {
		return n
	}
	return -1
}

// schemaCacheGrace is how long a reload is awaited after the trial's load
// ended (ctx): one begun near the end is still seen.
const schemaCacheGrace = 5 * time.Second

// schemaCacheLoads waits for the target's schema cache loads to go past
// after (-1: the current load is the one awaited, as after a restart),
// until schemaCacheGrace after ctx ends, and returns it as an event:
// placed at the time it was seen less the query time PostgREST reports,
// lasting that long. Nil when the target's /metrics does not say.
func (l *Server) schemaCacheLoads(ctx context.Context, after float64) []lab.Event {
	if l.cfg.AdminURL == "" {
		return nil
	}
	ended := ctx.Done()
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	for {
		all, ok := l.metrics(ctx)
		n, has := all[metricSchemaCacheLoads]
		if ok && !has {
			return nil
		}
		if ok && n > after {
			secs := all[metricSchemaCacheTime]
			d := time.Duration(secs * float64(time.Second))
			return []lab.Event{{T: time.Now().Add(-d), Kind: lab.EventSchemaCache, Source: "postgrest", Duration: d,
				Detail: fmt.Sprintf("loaded: %s %.1f ms (load %.0f)", metricSchemaCacheTime, 1e3*secs, n)}}
		}
		select {
		case <-ended:
			ended = nil
			time.AfterFunc(schemaCacheGrace, cancel)
		case <-ctx.Done():
			return nil
		case <-time.After(schemaCachePoll):
		}
	}
}

// metrics reads the target's /metrics, false when it cannot.
func (l *Server) metrics(ctx context.Context) (map[string]float64, bool) {
	if l.cfg.AdminURL == "" {
		return nil, false
	}
	m, err := telemetry.ScrapePool(ctx, &http.Client{Timeout: time.Second}, l.cfg.AdminURL)
	if m.All == nil {
		_ = err // no admin server, or not PostgREST: nothing to say
		return nil, false
	}
	return m.All, true
}
