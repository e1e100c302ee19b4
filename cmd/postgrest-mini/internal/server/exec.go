package server

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/pgrst-lab/pgrst-lab/cmd/postgrest-mini/internal/apierr"
	"github.com/pgrst-lab/pgrst-lab/cmd/postgrest-mini/internal/sqlgen"
)

// The per-request settings, as PostgREST sets them (all transaction-local).
const (
	setupSQL = "SELECT pg_catalog.set_config('search_path', $1, true), pg_catalog.set_config('role', $2, true), " +
		"pg_catalog.set_config('request.jwt.claims', $3, true), pg_catalog.set_config('request.method', $4, true), " +
		"pg_catalog.set_config('request.path', $5, true), pg_catalog.set_config('request.headers', $6, true), " +
		"pg_catalog.set_config('request.cookies', $7, true)"
	setupReadOnlySQL = setupSQL + ", pg_catalog.set_config('transaction_read_only', 'on', true)"
)

// reqInfo is what the transaction setup needs from the HTTP request.
type reqInfo struct {
	method, path, headers, cookies string
	role, claims                   string
	readOnly, rpc                  bool
	rollback                       bool // end the transaction with ROLLBACK (db-tx-end, Prefer: tx)
}

// preRequestSQL is the call of db-pre-request's function ("name" or
// "schema.name", each part quoted as an identifier), made after the
// request's settings and before its statement, as PostgREST does; "" for
// none. It is a DO block: the batch parses every statement before it runs
// the first, and only a DO body is resolved when it runs, as the request's
// role (a schema the authenticator may not use is fine, as in PostgREST).
func preRequestSQL(fn string) (string, error) {
	if fn == "" {
		return "", nil
	}
	parts := strings.Split(fn, ".")
	if len(parts) > 2 || slices.Contains(parts, "") {
		return "", fmt.Errorf("db-pre-request = %q: want a function name, optionally schema-qualified (name or schema.name)", fn)
	}
	body := "BEGIN PERFORM " + pgx.Identifier(parts).Sanitize() + "(); END"
	return "DO '" + strings.ReplaceAll(body, "'", "''") + "'", nil
}

// result of a statement: its row count, exact total (-1 = unknown) and body.
type result struct {
	count int64
	total int64
	body  []byte
}

// run executes st in one transaction as the anonymous role. The setup and
// the statement are pipelined (one Sync), so PostgreSQL runs them in one
// implicit transaction: an error anywhere rolls everything back and the
// connection goes back to the pool clean.
func (s *Server) run(ctx context.Context, ri *reqInfo, st sqlgen.Statement) (result, *apierr.Error) {
	conn, aerr := s.pool.acquire(ctx)
	if aerr != nil {
		if aerr.Code == "PGRST001" {
			s.dbState(false)
		}
		return result{}, aerr
	}
	defer s.pool.release(conn)
	setup := setupSQL
	if ri.readOnly {
		setup = setupReadOnlySQL
	}
	var b pgx.Batch
	b.Queue(setup, s.searchPath, ri.role, ri.claims, ri.method, ri.path, ri.headers, ri.cookies)
	if s.preRequest != "" {
		b.Queue(s.preRequest)
	}
	b.Queue(st.SQL, st.Args...)
	var br pgx.BatchResults
	if ri.rollback {
		tx, err := conn.Begin(ctx)
		if err != nil {
			return result{}, apierr.DBConnection(fmt.Errorf("begin: %w", err))
		}
		defer func() { _ = tx.Rollback(ctx) }() // after br.Close below: the writes are undone
		br = tx.SendBatch(ctx, &b)
	} else {
		br = conn.SendBatch(ctx, &b)
	}
	var res result
	_, err := br.Exec()
	if err == nil && s.preRequest != "" {
		_, err = br.Exec()
	}
	if err == nil {
		var total *int64
		err = br.QueryRow().Scan(&res.count, &total, &res.body)
		res.total = -1
		if total != nil {
			res.total = *total
		}
	}
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		if e := apierr.FromPG(err, ri.rpc, true); e != nil {
			s.dbState(true)
			return result{}, e
		}
		if conn.Conn().IsClosed() {
			s.dbState(false)
		}
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return result{}, apierr.New(503, "PGRST001", "Request cancelled")
		}
		return result{}, apierr.DBConnection(fmt.Errorf("query: %w", err))
	}
	s.dbState(true)
	return res, nil
}
