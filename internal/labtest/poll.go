package labtest

import (
	"net"
	"testing"
	"time"
)

// FreePort returns a TCP port on 127.0.0.1 that nothing listens on right
// now (never a fixed one).
func FreePort(t testing.TB) int {
	t.Helper()
	p, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
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
