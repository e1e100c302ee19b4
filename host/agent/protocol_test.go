package agent

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

const testToken = "0123456789abcdef0123456789abcdef"

func newAgent(t *testing.T, srv lab.Server, opt Options) (*Handler, *httptest.Server) {
	t.Helper()
	h := newHandler(t, srv, opt)
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return h, ts
}

// newHandler is an agent for srv with the test token (unless opt has one),
// logging to the test.
func newHandler(t *testing.T, srv lab.Server, opt Options) *Handler {
	t.Helper()
	if opt.Token == nil {
		opt.Token = []byte(testToken)
	}
	opt.Logf = t.Logf
	h, err := NewHandler(srv, opt)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func newClient(t *testing.T, url string, tc *tls.Config) *Client {
	t.Helper()
	c, err := NewClient(url, ClientOptions{Token: []byte(testToken), TLS: tc, Driver: "test", Logf: t.Logf, RetryFor: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	// Stop the lease renewals with the test: a renewal that logs through
	// t.Logf after the test has ended panics the whole package.
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = c.Close(ctx)
	})
	return c
}

// TestClientServesRunLoop drives the fake through the client as the run
// loop does and checks every value crosses the wire.
func TestClientServesRunLoop(t *testing.T) {
	f := &fakeServer{}
	_, ts := newAgent(t, f, Options{AdvertiseURL: "http://10.0.0.5:3000"})
	c := newClient(t, ts.URL, nil)
	ctx := context.Background()
	if err := c.Open(ctx); err != nil {
		t.Fatal(err)
	}
	host, target, err := c.Describe(ctx)
	if err != nil || host.Hostname != "fake" || target.URL != "http://10.0.0.5:3000" {
		t.Fatalf("describe: %+v %+v %v (want the advertised URL)", host, target, err)
	}
	a, err := c.Apply(ctx, lab.Variant{Name: "unix", PostgREST: map[string]string{"db-pool": "3"}})
	if err != nil || len(a.Changes) != 1 || a.Changes[0].From != "10" || a.ReadyAfter != 42*time.Millisecond {
		t.Fatalf("apply: %+v %v", a, err)
	}
	w, err := c.Watch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tel, err := w.Stop(ctx, 77)
	if err != nil || tel.DB.Rollbacks != 77 || tel.Server.CPUSeconds != 1.5 || len(tel.Events) != 1 {
		t.Fatalf("stop: %+v %v", tel, err)
	}
	// The samples are shifted to the driver's window: by at most a little.
	if s := tel.Server.Samples[0].T; s > 0.1 || s < 0.1-0.5 {
		t.Errorf("sample T %v: want 0.1 minus a small shift", s)
	}
	if err := c.Restore(ctx); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if f.restores.Load() != 1 {
		t.Errorf("restores = %d, want 1 (Close after Restore restores nothing more)", f.restores.Load())
	}
}

// TestApplyErrorKeepsChanges: a failed apply returns its error and what it changed.
func TestApplyErrorKeepsChanges(t *testing.T) {
	f := &fakeServer{failNext: "target not ready after 60s"}
	_, ts := newAgent(t, f, Options{})
	c := newClient(t, ts.URL, nil)
	if err := c.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	a, err := c.Apply(context.Background(), lab.Variant{Name: "x"})
	if err == nil || !strings.Contains(err.Error(), "not ready after 60s") || len(a.Changes) != 1 {
		t.Fatalf("apply: %+v %v", a, err)
	}
}

// TestRequestIDReplay: a repeated request ID (a retry after a lost answer,
// here also one sent while the first still runs) is done once.
func TestRequestIDReplay(t *testing.T) {
	f := &fakeServer{applyFor: 300 * time.Millisecond}
	_, ts := newAgent(t, f, Options{})
	c := newClient(t, ts.URL, nil)
	ctx := context.Background()
	if err := c.Open(ctx); err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	body := []byte(`{"variant":{"name":"v1"}}`)
	codes := make(chan int, 3)
	for i := 0; i < 3; i++ {
		go func() {
			resp, err := raw(c, http.MethodPost, "/apply", body, map[string]string{HeaderRequestID: "same-1"})
			if err != nil {
				codes <- -1
				return
			}
			codes <- resp.StatusCode
		}()
	}
	for i := 0; i < 3; i++ {
		if code := <-codes; code != 200 {
			t.Fatalf("status %d", code)
		}
	}
	if got := f.applies(); len(got) != 1 {
		t.Fatalf("apply ran %d times for one request ID: %v", len(got), got)
	}
	if _, err := raw(c, http.MethodPost, "/apply", body, map[string]string{HeaderRequestID: "other"}); err != nil {
		t.Fatal(err)
	}
	if got := f.applies(); len(got) != 2 {
		t.Fatalf("a new request ID must run again: %v", got)
	}
}

// TestStopKeptUntilForgotten: a window's telemetry is kept after stop, so
// a driver whose answer was lost gets it again; a second stop does not stop twice.
func TestStopKeptUntilForgotten(t *testing.T) {
	f := &fakeServer{}
	_, ts := newAgent(t, f, Options{})
	c := newClient(t, ts.URL, nil)
	if err := c.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	var ws WindowStarted
	if err := c.call(context.Background(), http.MethodPost, "/windows", struct{}{}, &ws, time.Second); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		var tel lab.Telemetry
		if err := c.call(context.Background(), http.MethodPost, "/windows/"+ws.ID+"/stop", StopRequest{Requests: 5}, &tel, time.Second); err != nil || tel.DB.Rollbacks != 5 {
			t.Fatalf("stop %d: %+v %v", i, tel, err)
		}
	}
	var tel lab.Telemetry
	if err := c.call(context.Background(), http.MethodGet, "/windows/"+ws.ID, nil, &tel, time.Second); err != nil || tel.DB.Rollbacks != 5 {
		t.Fatalf("fetch: %+v %v", tel, err)
	}
	if f.stops.Load() != 1 {
		t.Fatalf("window stopped %d times", f.stops.Load())
	}
	if err := c.call(context.Background(), http.MethodDelete, "/windows/"+ws.ID, nil, nil, time.Second); err != nil {
		t.Fatal(err)
	}
	err := c.call(context.Background(), http.MethodGet, "/windows/"+ws.ID, nil, &tel, time.Second)
	if se, ok := asStatus(err); !ok || se.Status != 404 {
		t.Fatalf("after delete: %v, want 404", err)
	}
}

// TestLeaseExpiryRestores is the dead-man switch: a driver that stops
// renewing loses the lease and the agent restores. It runs in a synctest
// bubble, agent and driver on an in-memory connection: on the fake clock
// the renewals (every lease/5) never miss on a busy machine, and the
// expiry is checked one lease after the last renewal instead of by
// polling for two seconds.
func TestLeaseExpiryRestores(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const lease = 300 * time.Millisecond
		f := &fakeServer{}
		h, ln := pipeAgent(t, f, Options{Lease: lease})
		c := pipeClient(t, ln)
		if err := c.Open(context.Background()); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Apply(context.Background(), lab.Variant{Name: "v"}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(10 * lease) // renewals keep it alive
		synctest.Wait()
		if f.restores.Load() != 0 || !h.leases.live() {
			t.Fatalf("renewed session expired (restores %d)", f.restores.Load())
		}
		c.stopHB() // the driver dies
		<-c.hbDone
		time.Sleep(lease) // the last renewal was at most one lease ago
		synctest.Wait()
		if f.restores.Load() != 1 || h.leases.live() {
			t.Fatalf("restores = %d a lease after the last renewal (session live %v), want 1", f.restores.Load(), h.leases.live())
		}
		_, err := c.Apply(context.Background(), lab.Variant{Name: "v2"})
		if se, ok := asStatus(err); !ok || se.Status != http.StatusGone {
			t.Fatalf("apply after expiry: %v, want 410", err)
		}
		if c.Lost() == nil {
			t.Fatal("client does not know it lost the session")
		}
		// The agent is free again for the next driver.
		c2 := pipeClient(t, ln)
		if err := c2.Open(context.Background()); err != nil {
			t.Fatal(err)
		}
		c2.Close(context.Background())
	})
}

// TestOneDriverAtATime: a second driver is refused while the first holds the agent.
func TestOneDriverAtATime(t *testing.T) {
	_, ts := newAgent(t, &fakeServer{}, Options{})
	c1, c2 := newClient(t, ts.URL, nil), newClient(t, ts.URL, nil)
	if err := c1.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer c1.Close(context.Background())
	err := c2.Open(context.Background())
	if se, ok := asStatus(err); !ok || se.Status != http.StatusConflict || !strings.Contains(err.Error(), `driven by "test"`) {
		t.Fatalf("second driver: %v, want 409 naming the first", err)
	}
}

// TestRetryAfterDroppedConnection: connection errors are retried with the
// same request ID, and the operation runs once.
func TestRetryAfterDroppedConnection(t *testing.T) {
	f := &fakeServer{}
	h, _ := newAgent(t, f, Options{})
	drops := map[string]int{"/v1/apply": 2, "/v1/windows": 1, "stop": 2}
	var mu sync.Mutex
	flaky := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := r.URL.Path
		if strings.HasSuffix(key, "/stop") {
			key = "stop"
		}
		mu.Lock()
		n, ok := drops[key]
		if n > 0 {
			drops[key]--
		}
		mu.Unlock()
		if ok {
			// Serve it, then drop the answer (n times).
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			if n > 0 {
				hj, _ := w.(http.Hijacker)
				conn, _, _ := hj.Hijack()
				conn.Close()
				return
			}
			for k, v := range rec.Header() {
				w.Header()[k] = v
			}
			w.WriteHeader(rec.Code)
			w.Write(rec.Body.Bytes())
			return
		}
		h.ServeHTTP(w, r)
	})
	ts := httptest.NewServer(flaky)
	defer ts.Close()
	c := newClient(t, ts.URL, nil)
	if err := c.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	a, err := c.Apply(context.Background(), lab.Variant{Name: "v"})
	if err != nil || len(a.Changes) != 1 {
		t.Fatalf("apply through a flaky link: %+v %v", a, err)
	}
	if got := f.applies(); len(got) != 1 {
		t.Fatalf("apply ran %d times", len(got))
	}
	w, err := c.Watch(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	tel, err := w.Stop(context.Background(), 9)
	if err != nil || tel.DB.Rollbacks != 9 {
		t.Fatalf("stop through a flaky link: %+v %v", tel, err)
	}
	if f.watches.Load() != 1 || f.stops.Load() != 1 {
		t.Fatalf("watch ran %d times, stop %d times; want once each", f.watches.Load(), f.stops.Load())
	}
}

// raw sends one request with the client's token and lease.
func raw(c *Client, method, path string, body []byte, hdr map[string]string) (*http.Response, error) {
	req, _ := http.NewRequest(method, c.base+path, bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+testToken)
	c.mu.Lock()
	req.Header.Set(HeaderLease, c.leaseID)
	c.mu.Unlock()
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	return resp, nil
}

var _ = errors.New

// TestShutdownRestores: stopping the agent while a driver holds it (a
// variant in place) restores first; without a variant it restores nothing.
func TestShutdownRestores(t *testing.T) {
	f := &fakeServer{}
	h, ts := newAgent(t, f, Options{})
	c := newClient(t, ts.URL, nil)
	if err := c.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := h.Shutdown(context.Background()); err != nil || f.restores.Load() != 0 {
		t.Fatalf("shutdown with nothing applied: %v, %d restores", err, f.restores.Load())
	}
	c2 := newClient(t, ts.URL, nil)
	if err := c2.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := c2.Apply(context.Background(), lab.Variant{Name: "v"}); err != nil {
		t.Fatal(err)
	}
	if err := h.Shutdown(context.Background()); err != nil || f.restores.Load() != 1 {
		t.Fatalf("shutdown with a variant in place: %v, %d restores, want 1", err, f.restores.Load())
	}
}
