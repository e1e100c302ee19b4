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

// pool wraps pgxpool with PostgREST's acquisition timeout and the counters
// behind pgrst_db_pool_waiting and pgrst_db_pool_timeouts_total.
type pool struct {
	*pgxpool.Pool
	opts     *Options
	waiting  atomic.Int64
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
	return &pool{Pool: p, opts: o}, nil
}

// acquire waits at most db-pool-acquisition-timeout for a connection.
func (p *pool) acquire(ctx context.Context) (*pgxpool.Conn, *apierr.Error) {
	p.waiting.Add(1)
	actx, cancel := context.WithTimeout(ctx, p.opts.AcquireTimeout)
	c, err := p.Acquire(actx)
	cancel()
	p.waiting.Add(-1)
	if err == nil {
		return c, nil
	}
	if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
		p.timeouts.Add(1)
		return nil, apierr.PoolTimeout()
	}
	return nil, apierr.DBConnection(err)
}

// available is the number of connections a request could get now.
func (p *pool) available() int64 {
	st := p.Stat()
	return int64(st.MaxConns() - st.AcquiredConns())
}
