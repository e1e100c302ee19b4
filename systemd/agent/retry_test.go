package agent

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// TestRestoreRetriedUntilItSucceeds: after a lost driver the restore is
// retried (logged) until it succeeds, and no new driver gets the agent
// before (issue 13, finding 5: a failed lease restore was never retried).
func TestRestoreRetriedUntilItSucceeds(t *testing.T) {
	f := &fakeServer{}
	f.restoreFails.Store(3)
	_, ts := newAgent(t, f, Options{Lease: 200 * time.Millisecond, RestoreRetry: 20 * time.Millisecond})
	ctx := context.Background()
	c := openApplied(t, ts.URL)
	c.stopHB() // the driver "dies": no more renewals
	<-c.hbDone
	second := newClient(t, ts.URL, nil)
	second.opt.RetryFor = 1
	// Poll: while the restore keeps failing, a new driver is refused (409);
	// it gets the agent only once the fourth attempt has put the original
	// back (the fake's counter may reach 4 between a refusal and the next
	// try, so the counter is checked when a session is granted).
	deadline := time.Now().Add(30 * time.Second)
	for {
		err := second.Open(ctx)
		if err == nil {
			if n := f.restores.Load(); n < 4 {
				t.Fatalf("a new driver got the agent after %d restores (3 fail, the 4th works)", n)
			}
			break
		}
		if se, ok := asStatus(err); !ok || se.Status != http.StatusConflict {
			t.Fatalf("new driver while restoring: %v, want 409", err)
		}
		if time.Now().After(deadline) {
			t.Fatalf("no session within 30 s; restore tried %d times: %v", f.restores.Load(), err)
		}
		time.Sleep(10 * time.Millisecond) // polling the agent's state
	}
	second.Close(ctx)
	if n := f.restores.Load(); n != 4 {
		t.Fatalf("%d restores, want 3 failed and 1 that worked", n)
	}
}

// TestErrorRepliesWithoutLogLines: a failed restore's reply says what
// failed but carries none of the unit's log lines (issue 13, finding 2:
// an error body quoted lines of a file the target had read).
func TestErrorRepliesWithoutLogLines(t *testing.T) {
	f := &fakeServer{}
	f.restoreFails.Store(1)
	_, ts := newAgent(t, f, Options{RestoreRetry: 20 * time.Millisecond})
	ctx := context.Background()
	c := openApplied(t, ts.URL)
	err := c.Close(ctx)
	if err == nil || strings.Contains(err.Error(), "FATAL") || !strings.Contains(err.Error(), "restart lab-postgres.service: failed") {
		t.Fatalf("close with a failing restore: %v, want the failure without its log lines", err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for f.restores.Load() < 2 {
		if time.Now().After(deadline) {
			t.Fatal("the failed restore after DELETE /session was not retried")
		}
		time.Sleep(10 * time.Millisecond) // polling the fake's counter
	}
}

// openApplied opens a session on the agent at url and applies a variant.
func openApplied(t *testing.T, url string) *Client {
	t.Helper()
	c := newClient(t, url, nil)
	if err := c.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Apply(context.Background(), lab.Variant{Name: "v", PostgREST: map[string]string{"db-pool": "3"}}); err != nil {
		t.Fatal(err)
	}
	return c
}
