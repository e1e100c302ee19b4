package server

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pgrst-lab/pgrst-lab/cmd/postgrest-mini/internal/apierr"
)

// pool wraps pgxpool with PostgREST's acquisition timeout and the gauges of
// its /metrics. A slot semaphore of db-pool entries sits in front of
// pgxpool; "available" is the free slots. "waiting" follows PostgREST 13's
// pgrst_db_pool_waiting: raised before a request asks for a connection,
// lowered when it gives the connection back, so it counts requests waiting
// for or using one (the lab derives the really waiting ones as
// waiting - (max - available) on both servers).
type pool struct {
	*pgxpool.Pool
	opts     *Options
	slots    chan struct{}
	waiting  atomic.Int64 // requests between acquire and release (or failure)
	timeouts atomic.Int64
}

func newPool(o *Options) (*pool, error) {
	cfg, err := pgxpool.ParseConfig(o.DBURI)
	if err != nil {
		return nil, fmt.Errorf("db-uri: %w", err)
	}
	cfg.MaxConns = int32(o.Pool)
	cfg.MinConns = 0
	if o.PoolMaxLifetime > 0 {
		cfg.MaxConnLifetime = o.PoolMaxLifetime
	}
	if o.PoolMaxIdle > 0 {
		cfg.MaxConnIdleTime = o.PoolMaxIdle
	}
	if o.PreparedStatements {
		cfg.ConnConfig.DefaultQueryExecMode = pgx.QueryExecModeCacheStatement
	} else {
		// unnamed statements, one round trip, like PostgREST's
		// db-prepared-statements = false
		cfg.ConnConfig.DefaultQueryExecMode = pgx.QueryExecModeExec
	}
	if _, ok := cfg.ConnConfig.RuntimeParams["application_name"]; !ok {
		cfg.ConnConfig.RuntimeParams["application_name"] = "postgrest-mini"
	}
	p, err := pgxpool.NewWithConfig(context.Background(), cfg) // connects lazily
	if err != nil {
		return nil, fmt.Errorf("db pool: %w", err)
	}
	return &pool{Pool: p, opts: o, slots: make(chan struct{}, o.Pool)}, nil
}

// acquire waits at most db-pool-acquisition-timeout for a connection; the
// caller must call release(conn) when done.
func (p *pool) acquire(ctx context.Context) (*pgxpool.Conn, *apierr.Error) {
	actx, cancel := context.WithTimeout(ctx, p.opts.AcquireTimeout)
	defer cancel()
	p.waiting.Add(1)
	select {
	case p.slots <- struct{}{}:
	case <-actx.Done():
		p.waiting.Add(-1)
		if ctx.Err() == nil {
			p.timeouts.Add(1)
			return nil, apierr.PoolTimeout()
		}
		return nil, apierr.DBConnection(ctx.Err())
	}
	c, err := p.Acquire(actx)
	if err == nil {
		return c, nil
	}
	<-p.slots
	p.waiting.Add(-1)
	if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
		p.timeouts.Add(1)
		return nil, apierr.PoolTimeout()
	}
	return nil, apierr.DBConnection(err)
}

// release gives a connection and its slot back.
func (p *pool) release(c *pgxpool.Conn) {
	c.Release()
	<-p.slots
	p.waiting.Add(-1)
}

// available is the number of free slots: requests that would not wait.
func (p *pool) available() int64 { return int64(cap(p.slots) - len(p.slots)) }
