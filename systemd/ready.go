package systemd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"
)

// Readiness probing backs off from ReadyBackoffStart, doubling up to
// ReadyBackoffMax between attempts.
const (
	ReadyBackoffStart = 5 * time.Millisecond
	ReadyBackoffMax   = 100 * time.Millisecond
	DefaultReadyWait  = 10 * time.Second
)

// Probe says how to tell that a service is ready to serve. The first
// non-empty of AdminURL, URL, Addr/UnixSocket is used:
//
//   - AdminURL: PostgREST's admin server; GET <AdminURL>/ready must answer 200
//     (AdminURL may also name the /ready endpoint itself);
//   - URL: a request (Method, default GET) that must answer 2xx, over
//     UnixSocket when set (the URL's host is then only the Host header);
//   - Addr (TCP host:port) or UnixSocket alone: a connection is accepted.
//
// A job's "done" comes before the server listens, so a start or restart is
// complete only when WaitReady returns.
type Probe struct {
	AdminURL   string
	URL        string
	Method     string
	UnixSocket string
	Addr       string
	// Timeout bounds the wait (0 = DefaultReadyWait).
	Timeout time.Duration
	// With Controller and Unit set, WaitReady fails at once, with the
	// unit's log tail, when the unit dies instead of becoming ready.
	Controller Controller
	Unit       string
}

// String says what is probed, for messages.
func (p Probe) String() string {
	via := ""
	if p.UnixSocket != "" {
		via = " via unix socket " + p.UnixSocket
	}
	switch {
	case p.AdminURL != "":
		return "GET " + p.adminReadyURL() + " (200)" + via
	case p.URL != "":
		return p.method() + " " + p.URL + " (2xx)" + via
	case p.Addr != "":
		return "TCP connect to " + p.Addr
	case p.UnixSocket != "":
		return "connect to unix socket " + p.UnixSocket
	}
	return "nothing"
}

func (p Probe) method() string {
	if p.Method == "" {
		return http.MethodGet
	}
	return p.Method
}

func (p Probe) adminReadyURL() string {
	u := strings.TrimRight(p.AdminURL, "/")
	if strings.HasSuffix(u, "/ready") {
		return u
	}
	return u + "/ready"
}

// WaitReady probes until the service is ready and returns how long that
// took. On timeout the error says what was probed and the last response or
// error seen.
func WaitReady(ctx context.Context, p Probe) (time.Duration, error) {
	start := time.Now()
	if p.AdminURL == "" && p.URL == "" && p.Addr == "" && p.UnixSocket == "" {
		return 0, errors.New("wait ready: probe has no AdminURL, URL, Addr or UnixSocket")
	}
	timeout := p.Timeout
	if timeout == 0 {
		timeout = DefaultReadyWait
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	attempt := p.attemptFunc()
	backoff := ReadyBackoffStart
	var last error
	lastUnitCheck := start
	for n := 1; ; n++ {
		err := attempt(ctx)
		if err == nil {
			return time.Since(start), nil
		}
		// An attempt cut off by the overall deadline says less than the
		// answer before it (a 503 and its body): keep that one.
		if last == nil || ctx.Err() == nil {
			last = err
		}
		if p.Controller != nil && p.Unit != "" && time.Since(lastUnitCheck) >= 50*time.Millisecond {
			lastUnitCheck = time.Now()
			if err := unitDied(ctx, p.Controller, p.Unit); err != nil {
				return time.Since(start), err
			}
		}
		t := time.NewTimer(backoff)
		select {
		case <-ctx.Done():
			t.Stop()
			if p.Controller != nil && p.Unit != "" {
				if err := unitDied(ctx, p.Controller, p.Unit); err != nil {
					return time.Since(start), err
				}
			}
			return time.Since(start), fmt.Errorf("not ready after %v (%d probes of %s): last: %v",
				time.Since(start).Round(time.Millisecond), n, p, last)
		case <-t.C:
		}
		backoff = min(2*backoff, ReadyBackoffMax)
	}
}

// unitDied returns a UnitError when the unit is no longer running.
func unitDied(ctx context.Context, c Controller, unit string) error {
	cctx, cancel := shortContext()
	defer cancel()
	props, err := c.Properties(cctx, unit)
	if err != nil {
		return nil // cannot tell; keep probing
	}
	switch {
	case props.ActiveState == "failed", props.ActiveState == "inactive",
		props.SubState == "auto-restart":
		return unitError(c, unit, "wait-ready", fmt.Sprintf("unit is %s/%s instead of ready", props.ActiveState, props.SubState), nil)
	}
	return nil
}

// attemptFunc returns one probe attempt: nil when ready.
func (p Probe) attemptFunc() func(context.Context) error {
	dialer := &net.Dialer{}
	if p.AdminURL == "" && p.URL == "" {
		network, addr := "tcp", p.Addr
		if addr == "" {
			network, addr = "unix", p.UnixSocket
		}
		return func(ctx context.Context) error {
			actx, cancel := context.WithTimeout(ctx, time.Second)
			defer cancel()
			c, err := dialer.DialContext(actx, network, addr)
			if err != nil {
				return err
			}
			return c.Close()
		}
	}
	tr := &http.Transport{DisableKeepAlives: true, Proxy: nil}
	if p.UnixSocket != "" {
		tr.DialContext = func(ctx context.Context, _, _ string) (net.Conn, error) {
			return dialer.DialContext(ctx, "unix", p.UnixSocket)
		}
	}
	client := &http.Client{Transport: tr, Timeout: 2 * time.Second}
	url, method, want := p.URL, p.method(), "2xx"
	if p.AdminURL != "" {
		url, method, want = p.adminReadyURL(), http.MethodGet, "200"
	}
	return func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, method, url, nil)
		if err != nil {
			return fmt.Errorf("probe request: %w", err)
		}
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 200))
		resp.Body.Close()
		ok := resp.StatusCode/100 == 2
		if want == "200" {
			ok = resp.StatusCode == http.StatusOK
		}
		if ok {
			return nil
		}
		return fmt.Errorf("status %s, want %s; body: %q", resp.Status, want, body)
	}
}
