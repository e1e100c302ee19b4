package telemetry

import (
	"context"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
)

// TestStatementDeltas runs a known workload and checks which statements
// the readings' difference holds, with exact calls; the readings
// themselves are left out.
func TestStatementDeltas(t *testing.T) {
	ctx := context.Background()
	db := labtest.NewDB(t)
	reader := connect(t, db)
	if err := EnsureStatements(ctx, reader); err != nil {
		t.Fatalf("pg_stat_statements (the labtest cluster preloads it): %v", err)
	}
	work := connect(t, db)
	a, err := ReadStatements(ctx, reader)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if _, err := work.Exec(ctx, "SELECT $1::int + 1 AS three_times", i); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := work.Exec(ctx, "SELECT 'once' AS once"); err != nil {
		t.Fatal(err)
	}
	b, err := ReadStatements(ctx, reader)
	if err != nil {
		t.Fatal(err)
	}
	d := StatementDeltas(a, b)
	got := map[string]int64{}
	for _, s := range d {
		got[s.Query] = s.Calls
		if strings.Contains(s.Query, readDBMarker) {
			t.Errorf("the reading's own statement counted: %q", s.Query)
		}
		if s.TotalMs < 0 || s.Rows < 0 {
			t.Errorf("%q: negative %+v", s.Query, s)
		}
	}
	if got["SELECT $1::int + $2 AS three_times"] != 3 || got["SELECT $1 AS once"] != 1 {
		t.Errorf("deltas %v", got)
	}
	if len(d) > 0 && d[0].Calls != 3 {
		t.Errorf("not sorted by calls: %+v", d)
	}
	if again := StatementDeltas(b, b); len(again) != 0 {
		t.Errorf("no work, deltas %+v", again)
	}
}
