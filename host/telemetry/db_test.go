package telemetry

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
)

func connect(t *testing.T, db labtest.DB) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := pgx.Connect(ctx, db.UnixURI("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close(context.Background()) })
	return c
}

// TestReadDBDelta runs a known workload on a second connection and checks
// the exact transactions, rows and statements between readings, and that
// the readings themselves count as nothing.
func TestReadDBDelta(t *testing.T) {
	ctx := context.Background()
	db := labtest.NewDB(t)
	reader := connect(t, db)
	if err := EnsureStatements(ctx, reader); err != nil {
		t.Fatalf("pg_stat_statements (the labtest cluster preloads it): %v", err)
	}
	work := connect(t, db)
	_ = connect(t, db) // stays idle: one more backend in state "idle"
	exec := func(sql string) {
		t.Helper()
		if _, err := work.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	read := func() DBCounters {
		t.Helper()
		c, err := ReadDB(ctx, reader)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	// On the reader: its first reading publishes it (a new backend's
	// counters are held back for a second after its first flush).
	if _, err := reader.Exec(ctx, "CREATE TABLE t (id int) WITH (autovacuum_enabled = false)"); err != nil {
		t.Fatal(err)
	}

	readings := []DBCounters{read()}
	if a := readings[0]; !a.Statements || !a.Flushed || a.Database != db.Name {
		t.Fatalf("first reading %+v", a)
	}
	// Workload: 11 commits, 1 rollback, 14 statements, 101 rows inserted.
	exec("INSERT INTO t SELECT generate_series(1, 100)")
	for i := 0; i < 10; i++ {
		exec("SELECT count(*) FROM t")
	}
	exec("BEGIN")
	exec("INSERT INTO t VALUES (0)")
	exec("ROLLBACK")
	readings = append(readings, read())
	if b := readings[1].Backends; b["idle"] != 2 {
		t.Errorf("backends %v, want 2 idle (work and the idle connection)", b)
	}
	_ = work.Close(ctx) // a backend publishes its counters when it exits
	sum := func() DBDelta { return SumDeltas(readings...) }
	waitFor(t, 15*time.Second, "the work backend's counters", func() bool {
		readings = append(readings, read())
		return sum().TupInserted >= 101
	})
	d := sum()
	t.Logf("%d readings; delta %+v", len(readings), d)
	// An autovacuum worker visiting the database commits a transaction or
	// two there; each reading of ours would add four if not subtracted.
	if d.XactCommit < 11 || d.XactCommit > 13 || d.XactRollback != 1 || d.Reset {
		t.Errorf("commits/rollbacks = %d/%d, want 11 (+ up to 2 of autovacuum)/1", d.XactCommit, d.XactRollback)
	}
	if d.StatementCalls != 14 {
		t.Errorf("statements = %d, want 14", d.StatementCalls)
	}
	if d.TupInserted != 101 || d.Backends["idle"] != 1 {
		t.Errorf("tup_inserted = %d (want 101), backends %v (want 1 idle)", d.TupInserted, d.Backends)
	}
	if pr := d.PerRequest(7); pr.Statements != 2 || pr.Transactions != float64(d.Transactions())/7 {
		t.Errorf("per request %+v, want 2 statements and %d/7 transactions", pr, d.Transactions())
	}
	// Readings alone show no work.
	x, y := read(), read()
	if own := Delta(x, y); own.XactCommit > 1 || own.XactRollback != 0 || own.StatementCalls != 0 {
		t.Errorf("two back-to-back readings show work: %+v", own)
	}
}

func TestReadDBWithoutStatements(t *testing.T) {
	ctx := context.Background()
	db := labtest.NewDB(t)
	c := connect(t, db)
	r, err := ReadDB(ctx, c) // extension not created in this database
	if err != nil {
		t.Fatal(err)
	}
	if r.Statements || r.StatementsErr == "" || r.OwnRollbacks != 1 {
		t.Errorf("reading %+v: want Statements=false with a reason", r)
	}
	r2, err := ReadDB(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	if d := Delta(r, r2); d.Statements || d.XactCommit > 1 || d.XactRollback != 0 {
		t.Errorf("delta %+v: want no statements and no transactions (but an autovacuum visit)", d)
	}
	t.Logf("without the extension: %s", r.StatementsErr)
}
