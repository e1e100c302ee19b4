package agent

import (
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
)

// Windows outliving their lease (issue 27's review, finding 1): eight
// POST /windows, then DELETE /session a few milliseconds later. watch()
// checked that the lease held before
// srv.Watch but not after, so a window added once close had drained the
// lease was never stopped; its speed reference (a locked OS thread at
// 10 Hz) and pool scraper ran on under context.WithoutCancel, with no
// lease open. Now a window that arrives after the drain is stopped at
// once (410), and the recordings end with their window's context.
func attackWindowsOutliveLease(t *testing.T, r *rig) {
	base := recorders()
	a := r.agent(t, DefaultPolicy(), 0)
	for round := 0; round < 4; round++ {
		a.open()
		sid := a.leaseID
		var wg sync.WaitGroup
		first := make(chan struct{}, 8)
		codes := make(chan int, 8)
		for i := 0; i < 8; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				code := a.rawWindow(sid)
				first <- struct{}{}
				codes <- code
			}()
		}
		<-first // one window is recording: close while the others are being set up
		status, body := a.close()
		wg.Wait()
		close(codes)
		if status != http.StatusNoContent {
			t.Fatalf("round %d: close: %d %s", round, status, body)
		}
		for c := range codes {
			if c != http.StatusCreated && c != http.StatusGone && c != http.StatusTooManyRequests {
				t.Errorf("round %d: POST /windows during the close: %d, want 201, 410 or 429", round, c)
			}
		}
	}
	// The same race with the dead-man switch: windows keep arriving while
	// the lease (never renewed) runs out.
	b := r.agent(t, DefaultPolicy(), 300*time.Millisecond)
	b.open()
	sid := b.leaseID
	var wg sync.WaitGroup
	gone := make(chan int, 8)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			end := time.Now().Add(10 * time.Second) // bounded: the lease ends long before
			for n := 0; n < 1e6 && time.Now().Before(end); n++ {
				if c := b.rawWindow(sid); c == http.StatusGone || c < 0 {
					gone <- c
					return
				}
			}
		}()
	}
	wg.Wait()
	if len(gone) != 8 {
		t.Errorf("only %d of 8 window loops saw the lease end (410)", len(gone))
	}
	// Nothing of the windows survives the leases: no speed reference, no
	// pool scraper, no sampler.
	var left string
	defer func() {
		if t.Failed() {
			t.Logf("still running with no session open: %s", left)
		}
	}()
	labtest.WaitFor(t, "the recordings of the closed sessions' windows to end", func() bool {
		left = recorders().leftOver(base)
		return left == ""
	})
}

// rawWindow is POST /windows with the given lease, safe to call from
// several goroutines (it reports the status instead of failing the test).
func (a *attacker) rawWindow(leaseID string) int {
	req, err := http.NewRequest("POST", a.url+"/windows", strings.NewReader(`{}`))
	if err != nil {
		return -1
	}
	req.Header.Set("Authorization", "Bearer "+testToken)
	req.Header.Set(HeaderLease, leaseID)
	resp, err := a.hc.Do(req)
	if err != nil {
		return -1
	}
	resp.Body.Close()
	return resp.StatusCode
}

// recording counts the goroutines of telemetry recordings by the function
// they run, from a dump of every goroutine's stack.
type recording map[string]int

// recorderFuncs are the functions a window's recordings run in.
var recorderFuncs = []string{"telemetry.StartSpeedRef.func", "host.watchPool.func", "telemetry.(*Sampler).run"}

func recorders() recording {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	out := recording{}
	for _, g := range strings.Split(string(buf), "\n\n") {
		for _, f := range recorderFuncs {
			if strings.Contains(g, f) {
				out[f]++
			}
		}
	}
	return out
}

// leftOver names the recordings running now beyond those of base.
func (r recording) leftOver(base recording) string {
	var out []string
	for _, f := range recorderFuncs {
		if n := r[f] - base[f]; n > 0 {
			out = append(out, f+" ×"+strconv.Itoa(n))
		}
	}
	return strings.Join(out, ", ")
}

// r3-own-window-of-an-ended-session (a way around the fix of finding
// 1, tried and refused): a window of a lease that ended is
// gone for the next lease, and its old lease ID answers 410; no
// window ID from one lease reaches another's telemetry.
func attackWindowOfEndedLease(t *testing.T, r *rig) {
	a := r.agent(t, DefaultPolicy(), 0)
	a.open()
	old := a.leaseID
	if status, body := a.do("POST", "/windows", "", strings.NewReader(`{}`)); status != http.StatusCreated {
		t.Fatalf("window: %d %s", status, body)
	}
	if status, body := a.close(); status != http.StatusNoContent {
		t.Fatalf("close: %d %s", status, body)
	}
	a.open()
	defer a.close()
	for _, c := range []struct{ method, path, body string }{
		{"GET", "/windows/w1", ""}, {"POST", "/windows/w1/stop", `{"requests":1}`}, {"DELETE", "/windows/w1", ""},
	} {
		if status, body := a.do(c.method, c.path, "", strings.NewReader(c.body)); status != http.StatusNotFound {
			t.Errorf("%s %s in the next session: %d %.200s, want 404", c.method, c.path, status, body)
		}
	}
	b := *a
	b.leaseID = old
	if status, body := b.do("GET", "/windows/w1", "", nil); status != http.StatusGone {
		t.Errorf("GET /windows/w1 with the ended session's ID: %d %.200s, want 410", status, body)
	}
}
