package labtest

import (
	"errors"
	"net"
	"sync"
	"testing"
	"time"
)

// FreePort returns a TCP port on 127.0.0.1 that nothing listens on right
// now (never a fixed one) and that no earlier call in this test binary
// returned: the kernel may hand the port it just freed out again, so two
// calls in a row (a server port and its admin port) could otherwise get
// the same one.
func FreePort(t testing.TB) int {
	t.Helper()
	p, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// given holds the ports freePort handed out.
var given = struct {
	sync.Mutex
	ports map[int]bool
}{ports: map[int]bool{}}

// freePort asks the kernel for a free port until it gets one it did not
// hand out before.
func freePort() (int, error) {
	given.Lock()
	defer given.Unlock()
	for range 100 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return 0, err
		}
		p := l.Addr().(*net.TCPAddr).Port
		l.Close()
		if !given.ports[p] {
			given.ports[p] = true
			return p, nil
		}
	}
	return 0, errors.New("no free port on 127.0.0.1 that was not handed out before, in 100 tries")
}

// WaitFor polls ok every 20 ms until it holds and fails the test, naming
// what it waited for, when it does not within 10 s: for waiting on a state
// a test can observe, instead of sleeping.
func WaitFor(t testing.TB, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
