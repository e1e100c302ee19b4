package labtest

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// fatalTB records a Fatalf and ends the goroutine, as testing.T does.
type fatalTB struct {
	testing.TB
	msg string
}

func (f *fatalTB) Helper() {}

func (f *fatalTB) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// WaitFor returns at the first poll that sees the state, and gives up
// (naming what it waited for) once 10 s have passed. Both run in a
// synctest bubble, on its fake clock: the times are exact and the test
// does not wait 10 s.
func TestWaitFor(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		WaitFor(t, "3 s to pass", func() bool { return time.Since(start) >= 3*time.Second })
		if el := time.Since(start); el != 3*time.Second {
			t.Errorf("WaitFor returned after %v, want at the poll at 3 s", el)
		}

		start = time.Now()
		tb := &fatalTB{}
		done := make(chan struct{})
		go func() {
			defer close(done)
			WaitFor(tb, "a state that never comes", func() bool { return false })
		}()
		<-done
		if el := time.Since(start); el <= 10*time.Second || el > 10*time.Second+20*time.Millisecond {
			t.Errorf("WaitFor gave up after %v, want at the first poll past 10 s", el)
		}
		if !strings.Contains(tb.msg, "timed out waiting for a state that never comes") {
			t.Errorf("WaitFor failed with %q", tb.msg)
		}
	})
}

// FreePort never hands out a port twice in one test binary, though the
// kernel often gives back the port it has just freed: a server port and
// its admin port asked for in a row must differ.
func TestFreePortNeverRepeats(t *testing.T) {
	seen := map[int]bool{}
	for range 500 {
		p := FreePort(t)
		if seen[p] {
			t.Fatalf("port %d handed out twice", p)
		}
		seen[p] = true
	}
}
