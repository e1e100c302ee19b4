package reconcile

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/pgrst-lab/pgrst-lab/host/telemetry"
	"github.com/pgrst-lab/pgrst-lab/lab"
)

// PostgREST's own figures of its schema cache (admin server, /metrics,
// PostgREST 12.2+): loads so far and, despite its name, the time of the
// last load's building step in milliseconds (PostgREST sets the gauge
// from SchemaCacheLoadedObs, the figure its log shows as "Schema cache
// loaded in X milliseconds": read 1.13 beside a log's 1.1 on 14.17).
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
// placed at the time it was seen less the time it took, lasting that
// long. Both PostgREST's words count: its log's lines after mark (the
// queries' time and the building's, the whole load) and its /metrics
// (the loads' count, the queries' time; PostgREST 12.2+). The log's
// figure is the event's length when it has one. Nil when neither says.
func (l *Server) schemaCacheLoads(ctx context.Context, after float64, mark string) []lab.Event {
	ended := ctx.Done()
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	metrics := l.cfg.AdminURL != ""
	for {
		all, ok := l.metrics(ctx)
		n, has := all[metricSchemaCacheLoads]
		if ok && !has {
			metrics = false // not PostgREST 12.2+: the log alone
		}
		// The log is read when it can decide: once /metrics counted the
		// load, or without /metrics, or after a restart (the count is
		// the new process's at once); not on every poll of a NOTIFY.
		seen := metrics && ok && n > after
		if seen || !metrics || after < 0 {
			inLog, logged := l.schemaCacheInLog(ctx, mark)
			for i := 0; seen && !logged && i < 20 && ctx.Err() == nil; i++ { // its last line may follow the count by a moment
				select {
				case <-ctx.Done():
				case <-time.After(schemaCachePoll):
				}
				inLog, logged = l.schemaCacheInLog(ctx, mark)
			}
			if seen || logged {
				return []lab.Event{schemaCacheEvent(all[metricSchemaCacheTime], n, seen, inLog, logged)}
			}
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

// schemaCacheEvent is a load as the log (inLog, when logged) and /metrics
// (its gauge gaugeMs, the building's milliseconds, and load count n, when
// seen) tell it.
func schemaCacheEvent(gaugeMs, n float64, seen bool, inLog schemaLog, logged bool) lab.Event {
	d := time.Duration(gaugeMs * float64(time.Millisecond))
	var detail []string
	if logged {
		d = inLog.Total()
		detail = append(detail, fmt.Sprintf("log: queried in %.1f ms, built in %.1f ms", ms(inLog.Queried), ms(inLog.Loaded)))
	}
	if seen {
		detail = append(detail, fmt.Sprintf("%s %.1f (the building's ms; load %.0f)", metricSchemaCacheTime, gaugeMs, n))
	}
	return lab.Event{T: time.Now().Add(-d), Kind: lab.EventSchemaCache, Source: "postgrest", Duration: d,
		Detail: "loaded: " + strings.Join(detail, "; ")}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

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
