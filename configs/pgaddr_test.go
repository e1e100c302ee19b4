package configs

import (
	"context"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
)

// QueryPGAddr reads the addresses of a real PostgreSQL, over TCP and over
// its Unix socket, and names the connection's problem when it cannot.
func TestQueryPGAddr(t *testing.T) {
	db := labtest.NewDB(t)
	want := PGAddr{Host: "127.0.0.1", Port: db.Port, SocketDir: db.SocketDir}
	for _, uri := range []string{db.TCPURI("postgres"), db.UnixURI("postgres")} {
		got, err := QueryPGAddr(context.Background(), uri)
		if err != nil || got != want {
			t.Errorf("QueryPGAddr(%s) = %+v, %v; want %+v", uri, got, err, want)
		}
	}
	if _, err := QueryPGAddr(context.Background(), "postgres://postgres@127.0.0.1:1/x?connect_timeout=2"); err == nil {
		t.Error("an unreachable server gave an address")
	}
}
