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
// (PGSTAT_IDLE_INTERVAL), or when it disconnects; so a reading taken right
// after the load stops can miss up to about a second of it. Take the end
// reading after the clients disconnected, or 10 s later, when exact
// transaction counts matter. pg_stat_statements counts are immediate.
// Each reading is one transaction of its own, seen by the next reading.
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
}

// readDBMarker names ReadDB's own statements so that they are left out of
// the pg_stat_statements total.
const readDBMarker = "telemetry_readdb"

const dbStatsSQL = `SELECT current_database(), coalesce(stats_reset, 'epoch'::timestamptz),
	xact_commit, xact_rollback, tup_returned, tup_fetched, tup_inserted, tup_updated, tup_deleted,
	blks_read, blks_hit, 1 AS ` + readDBMarker + `
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
	err := conn.QueryRow(ctx, dbStatsSQL).Scan(&c.Database, &c.StatsReset,
		&c.XactCommit, &c.XactRollback, &c.TupReturned, &c.TupFetched, &c.TupInserted, &c.TupUpdated, &c.TupDeleted,
		&c.BlksRead, &c.BlksHit, new(int))
	if err != nil {
		return c, fmt.Errorf("read pg_stat_database: %w", err)
	}
	if c.StatsReset.Unix() == 0 {
		c.StatsReset = time.Time{}
	}
	if err := conn.QueryRow(ctx, statementsSQL).Scan(&c.StatementCalls); err != nil {
		c.StatementsErr = statementsError(err)
	} else {
		c.Statements = true
	}
	rows, err := conn.Query(ctx, backendsSQL)
	if err != nil {
		return c, fmt.Errorf("read pg_stat_activity: %w", err)
	}
	var state string
	var n int
	_, err = pgx.ForEachRow(rows, []any{&state, &n}, func() error { c.Backends[state] = n; return nil })
	if err != nil {
		return c, fmt.Errorf("read pg_stat_activity: %w", err)
	}
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
	if _, err := conn.Exec(ctx, "CREATE EXTENSION IF NOT EXISTS pg_stat_statements"); err != nil {
		return fmt.Errorf("create extension pg_stat_statements: %w", err)
	}
	var n int64
	if err := conn.QueryRow(ctx, statementsSQL).Scan(&n); err != nil {
		return fmt.Errorf("read pg_stat_statements (is it in shared_preload_libraries?): %w", err)
	}
	return nil
}
