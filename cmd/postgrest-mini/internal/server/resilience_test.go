package server

import (
	"context"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
)

// TestBackendsTerminated: when PostgreSQL drops every connection of
// postgrest-mini, /ready reports it, the listener reconnects and reloads
// the schema cache, and requests succeed again without a restart.
func TestBackendsTerminated(t *testing.T) {
	db := labtest.Chinook(t)
	ts := start(t, db.UnixURI("authenticator"), nil)
	if st, _ := ts.get(t, "/artist?artist_id=eq.1"); st != 200 {
		t.Fatalf("before: %d", st)
	}
	loads := ts.loads.Load()
	conn := superConn(t, db)
	_, err := conn.Exec(context.Background(), `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = 'postgrest-mini'`, db.Name)
	must(t, err)
	sawDown := false
	deadline := time.Now().Add(15 * time.Second)
	for {
		st := ts.adminStatus(t, "/ready")
		sawDown = sawDown || st == 503
		if st == 200 && ts.loads.Load() > loads {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("not ready again 15 s after the backends were terminated (/ready %d, loads %d)", st, ts.loads.Load())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !sawDown {
		t.Error("/ready never reported the lost database connection")
	}
	for i := 0; i < 5; i++ { // pool connections were killed too: pgxpool replaces them
		if st, b := ts.get(t, "/artist?artist_id=eq.1"); st != 200 && i > 0 {
			t.Fatalf("request %d after reconnect: %d %s", i, st, b)
		}
	}
}
