package server

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
)

// listenLoop keeps a dedicated connection LISTENing on db-channel. The
// payloads "reload schema" and "" reload the schema cache; after a lost
// connection is re-established the cache is reloaded too (it may be stale).
func (s *Server) listenLoop(ctx context.Context) {
	first := true
	for ctx.Err() == nil {
		err := s.listenOnce(ctx, !first)
		first = false
		if ctx.Err() != nil {
			return
		}
		s.logf(LogError, "Listener on channel %q lost (retrying in 1s): %v", s.opts.Channel, err)
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Second):
		}
	}
}

func (s *Server) listenOnce(ctx context.Context, reconnected bool) error {
	cfg := s.pool.Config().ConnConfig.Copy()
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		s.dbState(false)
		return err
	}
	s.dbState(true)
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{s.opts.Channel}.Sanitize()); err != nil {
		return err
	}
	if reconnected {
		s.ReloadSchema()
	}
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			if ctx.Err() == nil {
				s.dbState(false)
			}
			return err
		}
		switch n.Payload {
		case "reload schema", "":
			s.logf(LogWarn, "Schema cache reload requested by NOTIFY")
			s.ReloadSchema()
		case "reload config":
			s.logf(LogWarn, "NOTIFY reload config: postgrest-mini does not reload its config; restart it")
		}
	}
}
