package agent

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// TestRestoreRetriedUntilItSucceeds: after a lost driver the restore is
// retried (logged), RestoreRetry apart and doubling, until it succeeds,
// and no new driver gets the agent before (issue 13, finding 5: a failed
// lease restore was never retried). It runs in a synctest bubble, agent
// and drivers on in-memory connections: on the fake clock the attempts'
// spacing is exact and the new driver's polling cannot race the fourth
// attempt.
func TestRestoreRetriedUntilItSucceeds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const retry = 20 * time.Millisecond
		f := &fakeServer{}
		f.restoreFails.Store(3)
		_, ln := pipeAgent(t, f, Options{Lease: 200 * time.Millisecond, RestoreRetry: retry})
		ctx := context.Background()
		c := openApplied(t, ln)
		c.stopHB() // the driver "dies": no more renewals
		<-c.hbDone
		second := pipeClient(t, ln)
		second.opt.RetryFor = 1
		// Poll: while the restore keeps failing, a new driver is refused
		// (409); it gets the agent only once the fourth attempt has put the
		// original back.
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
		if got, want := f.restoreGaps(), []time.Duration{retry, 2 * retry, 4 * retry}; !slices.Equal(got, want) {
			t.Errorf("restore attempts %v apart, want %v (RestoreRetry, doubling)", got, want)
		}
	})
}

// TestErrorRepliesWithoutLogLines: a failed restore's reply says what
// failed but carries none of the unit's log lines (issue 13, finding 2:
// an error body quoted lines of a file the target had read), and the
// agent retries the restore after the reply, until it works and no more
// (counted exactly after synctest.Wait instead of polled for).
func TestErrorRepliesWithoutLogLines(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := &fakeServer{}
		f.restoreFails.Store(1)
		_, ln := pipeAgent(t, f, Options{RestoreRetry: 20 * time.Millisecond})
		ctx := context.Background()
		c := openApplied(t, ln)
		err := c.Close(ctx)
		if err == nil || strings.Contains(err.Error(), "FATAL") || !strings.Contains(err.Error(), "restart lab-postgres.service: failed") {
			t.Fatalf("close with a failing restore: %v, want the failure without its log lines", err)
		}
		time.Sleep(time.Second)
		synctest.Wait()
		if n := f.restores.Load(); n != 2 {
			t.Fatalf("the failed restore after DELETE /session: %d restores, want it retried once", n)
		}
	})
}

// openApplied opens a lease on the agent listening on ln and applies a
// variant.
func openApplied(t *testing.T, ln *pipeListener) *Client {
	t.Helper()
	c := pipeClient(t, ln)
	if err := c.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Apply(context.Background(), lab.Variant{Name: "v", PostgREST: map[string]string{"db-pool": "3"}}); err != nil {
		t.Fatal(err)
	}
	return c
}
