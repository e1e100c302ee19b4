package telemetry

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"
)

// StatementCounter is one pg_stat_statements entry's cumulative counters.
type StatementCounter struct {
	Query   string
	Calls   int64
	TotalMs float64
	Rows    int64
}

// statementRowsSQL reads every statement of the connection's database;
// the key is pg_stat_statements' own (user, query id, top level); the
// text is cut at 500 characters.
const statementRowsSQL = `SELECT userid::text || ':' || coalesce(queryid, 0)::text || ':' || toplevel::text,
	left(query, 500), calls, total_exec_time, rows AS ` + readDBMarker + `
FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
	AND query NOT LIKE '%` + readDBMarker + `%'`

// ReadStatements reads the pg_stat_statements entries of the connection's
// database (ReadDB's and its own statements left out), by entry key.
func ReadStatements(ctx context.Context, conn DBConn) (map[string]StatementCounter, error) {
	rows, err := conn.Query(ctx, statementRowsSQL, pgx.QueryExecModeSimpleProtocol)
	if err != nil {
		return nil, fmt.Errorf("read pg_stat_statements: %w", err)
	}
	out := map[string]StatementCounter{}
	var key string
	var s StatementCounter
	_, err = pgx.ForEachRow(rows, []any{&key, &s.Query, &s.Calls, &s.TotalMs, &s.Rows}, func() error {
		out[key] = s
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read pg_stat_statements: %w", err)
	}
	return out, nil
}

// StatementDeltas are the statements executed between two readings,
// most calls first. An entry new in b counts from zero; one whose calls
// went down (evicted and re-entered, or reset) counts from zero too.
func StatementDeltas(a, b map[string]StatementCounter) []StatementCounter {
	var out []StatementCounter
	for k, s := range b {
		p, ok := a[k]
		if ok && p.Calls <= s.Calls {
			s.Calls -= p.Calls
			s.TotalMs -= p.TotalMs
			s.Rows -= p.Rows
		}
		if s.Calls > 0 {
			out = append(out, s)
		}
	}
	slices.SortFunc(out, func(x, y StatementCounter) int {
		if c := cmp.Compare(y.Calls, x.Calls); c != 0 {
			return c
		}
		return cmp.Compare(x.Query, y.Query)
	})
	return out
}
