package labtest

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
)

// QueryValue connects to uri, runs a query that returns one value and
// returns it.
func QueryValue[T any](t testing.TB, uri, sql string, args ...any) T {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, uri)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var v T
	if err := conn.QueryRow(ctx, sql, args...).Scan(&v); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return v
}
