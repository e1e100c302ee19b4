package server

import (
	"context"
	"time"

	"github.com/pgrst-lab/pgrst-lab/cmd/postgrest-mini/internal/schema"
)

// schemaLoop loads the schema cache whenever a reload is requested,
// retrying with backoff (0.5 s doubling to 8 s) until it succeeds. Until the
// first load, the API answers 503 PGRST002 and /ready 503.
func (s *Server) schemaLoop(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.reload:
		}
		backoff := 500 * time.Millisecond
		for {
			c, err := s.loadSchema(ctx)
			if err == nil {
				s.dbState(true)
				// Cached prepared statements stay valid: every statement
				// returns (int8, text) whatever the tables' columns.
				if s.cache.Swap(c) == nil && s.opts.OnReady != nil {
					s.opts.OnReady()
				}
				s.loads.Add(1)
				t, f, fn := c.Counts()
				// PostgREST's three lines, at every log level as PostgREST
				// writes them (its Observation messages).
				ms := float64(c.Took.Microseconds()) / 1000
				s.logf(LogCrit, "Schema cache queried in %.1f milliseconds", ms)
				s.logf(LogCrit, "Schema cache loaded %d Relations, %d Relationships, %d Functions", t, f, fn)
				s.logf(LogCrit, "Schema cache loaded in %.1f milliseconds", 0.0)
				break
			}
			if ctx.Err() != nil {
				return
			}
			s.logf(LogError, "Could not load the schema cache (retrying in %s): %v", backoff, err)
			select {
			case <-ctx.Done():
				return
			case <-time.After(backoff):
			}
			backoff = min(2*backoff, 8*time.Second)
		}
	}
}

func (s *Server) loadSchema(ctx context.Context) (*schema.Cache, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Release()
	return schema.Load(ctx, conn, s.opts.Schemas)
}
