package stack

import (
	"context"
	"net"
	"os"
	"strconv"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/systemd"
)

// When another process takes the stack's port between the lab's check and
// PostgreSQL's bind, Up starts PostgreSQL again on a new port.
func TestPortTakenMeanwhileIsRetried(t *testing.T) {
	needPostgres(t)
	dir := stateDir(t)
	taken, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := writeFacts(Facts{Dir: dir, PGPort: taken}); err != nil { // a stack that ran on `taken`
		t.Fatal(err)
	}
	afterPortCheck = func(port int) {
		if port == taken {
			if l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port)); err == nil {
				t.Cleanup(func() { l.Close() })
			}
		}
	}
	t.Cleanup(func() { afterPortCheck = nil })
	s := up(t, Options{Dir: dir, Supervisor: systemd.ModeDirect, NoTarget: true})
	defer s.Close()
	st, err := s.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if st.PGPort == taken || st.Postgres.State != "active" {
		t.Fatalf("port %d was taken, stack is on %d (%s)", taken, st.PGPort, st.Postgres.State)
	}
	query(t, st.TCPURI)
}
