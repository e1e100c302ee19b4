package telemetry

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// DBConn is what ReadDB needs of a connection: *pgx.Conn, *pgxpool.Pool,
// *pgxpool.Conn and pgx.Tx all have it.
type DBConn interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

// DBCounters is one reading of PostgreSQL's cumulative counters for the
// connection's database.
//
// PostgreSQL (15+) backends publish their pg_stat_database counters at
// most once a second while busy, and an idle backend within 10 s
// (PGSTAT_IDLE_INTERVAL; measured 9.3 s here with PostgREST's pool), or
// when it disconnects; so a reading taken right after the load stops can
// miss up to about a second of it. Take the end reading after the clients
// disconnected, or DBStatsIdleFlush later, when exact transaction counts
// matter. pg_stat_statements counts are immediate.
//
// The counters include autovacuum workers' transactions in the database.
// ReadDB's own transactions are left out of Delta when both readings use
// the same connection: a reading first makes its backend publish its
// counters (pg_stat_force_next_flush, PostgreSQL 15+), so the number of
// its own transactions between two readings is known.
type DBCounters struct {
	T          time.Time
	Database   string
	StatsReset time.Time // pg_stat_database.stats_reset (zero: never)

	XactCommit   int64
	XactRollback int64
	TupReturned  int64
	TupFetched   int64
	TupInserted  int64
	TupUpdated   int64
	TupDeleted   int64
	BlksRead     int64
	BlksHit      int64

	// Statements is whether pg_stat_statements could be read;
	// StatementsErr says why not.
	Statements     bool
	StatementsErr  string
	StatementCalls int64 // sum of calls in this database, ReadDB's own queries excluded

	// Backends counts client backends of this database by state (active,
	// idle, idle in transaction, ...), ReadDB's own connection excluded.
	Backends map[string]int

	// Flushed is whether the reading's backend published its own counters
	// first (PostgreSQL 15+).
	Flushed bool
	// OwnCommits and OwnRollbacks are this reading's transactions after
	// its pg_stat_database read, which the next reading counts.
	OwnCommits, OwnRollbacks int64
}

// DBStatsIdleFlush is how long after the load stops an idle PostgreSQL
// backend (e.g. in PostgREST's pool) may take to publish its counters.
const DBStatsIdleFlush = 10 * time.Second

// readDBMarker names ReadDB's own statements so that they are left out of
// the pg_stat_statements total.
const readDBMarker = "telemetry_readdb"

// flushSQL makes the backend publish its pending counters when the
// statement ends (a no-op before PostgreSQL 15).
const flushSQL = `DO $$ BEGIN -- ` + readDBMarker + `
IF to_regproc('pg_catalog.pg_stat_force_next_flush') IS NOT NULL THEN PERFORM pg_catalog.pg_stat_force_next_flush(); END IF;
END $$`

const dbStatsSQL = `SELECT current_database(), coalesce(stats_reset, 'epoch'::timestamptz),
	xact_commit, xact_rollback, tup_returned, tup_fetched, tup_inserted, tup_updated, tup_deleted,
	blks_read, blks_hit, to_regproc('pg_catalog.pg_stat_force_next_flush') IS NOT NULL AS ` + readDBMarker + `
FROM pg_stat_database WHERE datname = current_database()`

const statementsSQL = `SELECT coalesce(sum(calls), 0)::bigint AS ` + readDBMarker + `
FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
	AND query NOT LIKE '%` + readDBMarker + `%'`

const backendsSQL = `SELECT coalesce(state, 'unknown'), count(*) AS ` + readDBMarker + `
FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend'
	AND pid <> pg_backend_pid() GROUP BY 1`

// ReadDB reads the counters of the connection's database:
// pg_stat_database, the pg_stat_statements total (when the extension is
// installed in the database and preloaded; see EnsureStatements) and
// backends by state from pg_stat_activity.
func ReadDB(ctx context.Context, conn DBConn) (DBCounters, error) {
	c := DBCounters{T: time.Now(), Backends: map[string]int{}}
	// The simple protocol makes each query exactly one transaction (a
	// first-use Prepare would be another one), so own work is countable.
	simple := pgx.QueryExecModeSimpleProtocol
	if _, err := conn.Exec(ctx, flushSQL, simple); err != nil {
		return c, fmt.Errorf("flush own statistics: %w", err)
	}
	err := conn.QueryRow(ctx, dbStatsSQL, simple).Scan(&c.Database, &c.StatsReset,
		&c.XactCommit, &c.XactRollback, &c.TupReturned, &c.TupFetched, &c.TupInserted, &c.TupUpdated, &c.TupDeleted,
		&c.BlksRead, &c.BlksHit, &c.Flushed)
	if err != nil {
		return c, fmt.Errorf("read pg_stat_database: %w", err)
	}
	if c.StatsReset.Unix() == 0 {
		c.StatsReset = time.Time{}
	}
	c.OwnCommits = 1 // the read above
	if err := conn.QueryRow(ctx, statementsSQL, simple).Scan(&c.StatementCalls); err != nil {
		c.StatementsErr = statementsError(err)
		c.OwnRollbacks++
	} else {
		c.Statements = true
		c.OwnCommits++
	}
	rows, err := conn.Query(ctx, backendsSQL, simple)
	if err != nil {
		return c, fmt.Errorf("read pg_stat_activity: %w", err)
	}
	var state string
	var n int
	_, err = pgx.ForEachRow(rows, []any{&state, &n}, func() error { c.Backends[state] = n; return nil })
	if err != nil {
		return c, fmt.Errorf("read pg_stat_activity: %w", err)
	}
	c.OwnCommits++
	return c, nil
}

func statementsError(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "42P01" { // undefined_table
		return "pg_stat_statements is not installed in this database (CREATE EXTENSION pg_stat_statements)"
	}
	return "pg_stat_statements: " + err.Error()
}

// EnsureStatements creates the pg_stat_statements extension in the
// connection's database when it is missing (needs the privilege to create
// it, and shared_preload_libraries to include it for counts to exist) and
// checks that it can be read.
func EnsureStatements(ctx context.Context, conn DBConn) error {
	if _, err := conn.Exec(ctx, "CREATE EXTENSION IF NOT EXISTS pg_stat_statements SCHEMA public"); err != nil {
		return fmt.Errorf("create extension pg_stat_statements: %w", err)
	}
	var n int64
	if err := conn.QueryRow(ctx, statementsSQL).Scan(&n); err != nil {
		return fmt.Errorf("read pg_stat_statements (is it in shared_preload_libraries?): %w", err)
	}
	return nil
}
