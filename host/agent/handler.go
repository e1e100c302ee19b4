package agent

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/capability"
)

// Options configure a Handler.
type Options struct {
	Token  []byte // bearer token every request must carry (required)
	Policy Policy
	// Lease is how long the agent waits for a renewal before it restores
	// the original configuration (default 10 s).
	Lease time.Duration
	// AdvertiseURL, when set, replaces the target URL in describe: the
	// address the driver reaches the target at.
	AdvertiseURL string
	// HostID, when set, replaces the machine identity in describe.
	HostID  string
	Version string
	// ApplyTimeout bounds apply and restore (default 5 min); CallTimeout
	// every other call (default 1 min).
	ApplyTimeout, CallTimeout time.Duration
	// WindowMax bounds a telemetry window's life (default 1 h).
	WindowMax time.Duration
	// MaxWindows bounds the telemetry windows a lease has recording at
	// once (default 8): each holds a PostgreSQL connection and a sampler.
	MaxWindows int
	// MaxConnections bounds the connections Serve keeps open at once
	// (default 64), like Prometheus' --web.max-connections.
	MaxConnections int
	// RestoreRetry is the first wait between restore attempts after the
	// driver is gone (default 1 s; doubled up to 30 s, until it succeeds).
	RestoreRetry time.Duration
	// Secrets are the secret values the server side knows (reconcile's
	// Server.Secrets): replies and the log are cleaned of each by exact
	// match, besides the patterns for connection strings. nil: the
	// patterns alone.
	Secrets *capability.Secrets
	Logf    func(format string, args ...any)
}

// Handler serves a lab.Server over the API. It is safe for concurrent use.
type Handler struct {
	srv    lab.Server
	opt    Options
	mux    *http.ServeMux
	leases *leases

	mu    sync.Mutex
	dirty bool // a variant may be in place: restore when the driver goes

	// op serialises apply and restore (also the restore after a lost
	// driver): a restore that finishes cannot mark a concurrent apply's
	// variant clean.
	op sync.Mutex

	now func() time.Time // the agent's clock (tests skew it)
}

// NewHandler serves srv (local.Server in production).
func NewHandler(srv lab.Server, opt Options) (*Handler, error) {
	if len(opt.Token) == 0 {
		return nil, errors.New("agent: a bearer token is required")
	}
	if opt.Lease <= 0 {
		opt.Lease = 10 * time.Second
	}
	if opt.ApplyTimeout <= 0 {
		opt.ApplyTimeout = 5 * time.Minute
	}
	if opt.CallTimeout <= 0 {
		opt.CallTimeout = time.Minute
	}
	if opt.WindowMax <= 0 {
		opt.WindowMax = time.Hour
	}
	if opt.MaxWindows <= 0 {
		opt.MaxWindows = 8
	}
	if opt.MaxConnections <= 0 {
		opt.MaxConnections = 64
	}
	if opt.RestoreRetry <= 0 {
		opt.RestoreRetry = time.Second
	}
	if opt.Logf == nil {
		opt.Logf = func(string, ...any) {}
	}
	h := &Handler{srv: srv, opt: opt, mux: http.NewServeMux(), now: time.Now}
	h.leases = &leases{term: opt.Lease, now: time.Now, expired: h.expired}
	p := "/" + APIVersion
	h.mux.HandleFunc("GET "+p+"/health", h.health)
	h.mux.HandleFunc("GET "+p+"/clock", h.clock)
	h.mux.HandleFunc("GET "+p+"/describe", h.describe)
	h.mux.HandleFunc("POST "+p+"/session", h.openLease)
	h.mux.HandleFunc("POST "+p+"/session/renew", h.renewLease)
	h.mux.HandleFunc("DELETE "+p+"/session", h.closeLease)
	h.mux.HandleFunc("POST "+p+"/apply", h.mutating(h.apply))
	h.mux.HandleFunc("POST "+p+"/restore", h.mutating(h.restore))
	h.mux.HandleFunc("POST "+p+"/windows", h.mutating(h.watch))
	h.mux.HandleFunc("POST "+p+"/windows/{id}/stop", h.mutating(h.stop))
	h.mux.HandleFunc("GET "+p+"/windows/{id}", h.withLease(h.fetch))
	h.mux.HandleFunc("DELETE "+p+"/windows/{id}", h.withLease(h.forget))
	return h, nil
}

// ServeHTTP checks the token, limits the body and routes.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if err := checkToken(r, h.opt.Token); err != nil {
		// %q: a path with %0a in it must not start a line of its own.
		h.opt.Logf("refused %s %q from %s: %v", r.Method, r.URL.Path, r.RemoteAddr, err)
		w.Header().Set("WWW-Authenticate", `Bearer realm="lab-agent"`)
		w.Header().Set("Connection", "close") // no idle connection for a client without the token
		writeError(w, http.StatusUnauthorized, err)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, MaxBody)
	h.mux.ServeHTTP(w, r)
}

// Shutdown ends a live lease as if the driver had gone: the original
// configuration is restored when a variant is in place, retrying until it
// succeeds or ctx ends.
func (h *Handler) Shutdown(ctx context.Context) error {
	h.leases.mu.Lock()
	cur := h.leases.cur
	h.leases.mu.Unlock()
	if cur == nil {
		return h.restoreRetrying(ctx, "agent shutting down")
	}
	if s, ok := h.leases.close(cur.id); ok {
		defer h.leases.cleaned()
		h.stopWindows(ctx, s)
		return h.restoreRetrying(ctx, "agent shutting down")
	}
	return nil
}

// expired is the dead-man switch: the driver stopped renewing its lease.
// The restore is retried until it succeeds; no new lease starts before.
func (h *Handler) expired(s *lease) {
	h.opt.Logf("lease of session %s (%q) expired after %v without renewal", s.id, s.driver, s.term)
	ctx := context.Background()
	h.stopWindows(ctx, s)
	_ = h.restoreRetrying(ctx, "driver lost")
}

// stopWindows stops a lease's running windows (each holds a PostgreSQL
// connection and a sampler).
func (h *Handler) stopWindows(ctx context.Context, s *lease) {
	ctx, cancel := context.WithTimeout(ctx, h.opt.CallTimeout)
	defer cancel()
	for _, w := range s.windows.drain() {
		w.mu.Lock()
		if !w.stopped {
			_, _ = w.w.Stop(ctx, 0)
			w.cancel()
			w.stopped = true
		}
		w.mu.Unlock()
	}
}

// restoreIfDirty restores once when a variant may be in place; op is held.
func (h *Handler) restoreIfDirty(ctx context.Context, why string) error {
	h.op.Lock()
	defer h.op.Unlock()
	h.mu.Lock()
	dirty := h.dirty
	h.mu.Unlock()
	if !dirty {
		return nil
	}
	h.opt.Logf("%s: restoring the original configuration", why)
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, h.opt.ApplyTimeout)
	defer cancel()
	if err := h.srv.Restore(ctx); err != nil {
		return fmt.Errorf("restore (%s): %w", why, err)
	}
	h.setDirty(false)
	h.opt.Logf("original configuration restored in %v", time.Since(start).Round(time.Millisecond))
	return nil
}

// restoreRetrying calls restoreIfDirty until it succeeds or ctx ends,
// waiting RestoreRetry, doubled after each failure up to 30 s, and logging
// every failure (without log lines or secrets).
func (h *Handler) restoreRetrying(ctx context.Context, why string) error {
	wait := h.opt.RestoreRetry
	for attempt := 1; ; attempt++ {
		err := h.restoreIfDirty(ctx, why)
		if err == nil {
			return nil
		}
		h.opt.Logf("restore attempt %d failed, next in %v: %s", attempt, wait, h.logSafe(err))
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w (gave up: %v)", err, ctx.Err())
		case <-time.After(wait):
		}
		wait = min(2*wait, 30*time.Second)
	}
}

func (h *Handler) setDirty(d bool) {
	h.mu.Lock()
	h.dirty = d
	h.mu.Unlock()
}
