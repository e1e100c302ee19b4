package agent

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
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
	Version      string
	// ApplyTimeout bounds apply and restore (default 5 min); CallTimeout
	// every other call (default 1 min).
	ApplyTimeout, CallTimeout time.Duration
	// WindowMax bounds a telemetry window's life (default 1 h).
	WindowMax time.Duration
	Logf      func(format string, args ...any)
}

// Handler serves a lab.Server over the API. It is safe for concurrent use.
type Handler struct {
	srv lab.Server
	opt Options
	mux *http.ServeMux
	ss  *sessions

	mu    sync.Mutex
	dirty bool // a variant may be in place: restore when the driver goes

	now func() time.Time // the agent's clock (tests skew it)
}

// NewHandler serves srv (wire.Local in production).
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
	if opt.Logf == nil {
		opt.Logf = func(string, ...any) {}
	}
	h := &Handler{srv: srv, opt: opt, mux: http.NewServeMux(), now: time.Now}
	h.ss = &sessions{lease: opt.Lease, now: time.Now, expired: h.expired}
	p := "/" + APIVersion
	h.mux.HandleFunc("GET "+p+"/health", h.health)
	h.mux.HandleFunc("GET "+p+"/clock", h.clock)
	h.mux.HandleFunc("GET "+p+"/describe", h.describe)
	h.mux.HandleFunc("POST "+p+"/session", h.openSession)
	h.mux.HandleFunc("POST "+p+"/session/renew", h.renewSession)
	h.mux.HandleFunc("DELETE "+p+"/session", h.closeSession)
	h.mux.HandleFunc("POST "+p+"/apply", h.mutating(h.apply))
	h.mux.HandleFunc("POST "+p+"/restore", h.mutating(h.restore))
	h.mux.HandleFunc("POST "+p+"/windows", h.mutating(h.watch))
	h.mux.HandleFunc("POST "+p+"/windows/{id}/stop", h.mutating(h.stop))
	h.mux.HandleFunc("GET "+p+"/windows/{id}", h.withSession(h.fetch))
	h.mux.HandleFunc("DELETE "+p+"/windows/{id}", h.withSession(h.forget))
	return h, nil
}

// ServeHTTP checks the token, limits the body and routes.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if err := checkToken(r, h.opt.Token); err != nil {
		h.opt.Logf("refused %s %s from %s: %v", r.Method, r.URL.Path, r.RemoteAddr, err)
		w.Header().Set("WWW-Authenticate", `Bearer realm="lab-agent"`)
		writeError(w, http.StatusUnauthorized, err)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, MaxBody)
	h.mux.ServeHTTP(w, r)
}

// Shutdown ends a live session as if the driver had gone: the original
// configuration is restored when a variant is in place.
func (h *Handler) Shutdown(ctx context.Context) error {
	h.ss.mu.Lock()
	cur := h.ss.cur
	h.ss.mu.Unlock()
	if cur == nil {
		return h.restoreIfDirty(ctx, "agent shutting down")
	}
	if s, ok := h.ss.close(cur.id); ok {
		defer h.ss.cleaned()
		return h.cleanup(ctx, s, "agent shutting down")
	}
	return nil
}

// expired is the dead-man switch: the driver stopped renewing its lease.
func (h *Handler) expired(s *session) {
	h.opt.Logf("lease of session %s (%s) expired after %v without renewal", s.id, s.driver, s.lease)
	ctx, cancel := context.WithTimeout(context.Background(), h.opt.ApplyTimeout)
	defer cancel()
	if err := h.cleanup(ctx, s, "driver lost"); err != nil {
		h.opt.Logf("restore after lost driver: %v", err)
	}
}

// cleanup stops a session's running windows and restores when needed.
func (h *Handler) cleanup(ctx context.Context, s *session, why string) error {
	for _, w := range s.windows.drain() {
		w.mu.Lock()
		if !w.stopped {
			_, _ = w.w.Stop(ctx, 0)
			w.cancel()
			w.stopped = true
		}
		w.mu.Unlock()
	}
	return h.restoreIfDirty(ctx, why)
}

func (h *Handler) restoreIfDirty(ctx context.Context, why string) error {
	h.mu.Lock()
	dirty := h.dirty
	h.mu.Unlock()
	if !dirty {
		return nil
	}
	h.opt.Logf("%s: restoring the original configuration", why)
	start := time.Now()
	if err := h.srv.Restore(ctx); err != nil {
		return fmt.Errorf("restore (%s): %w", why, err)
	}
	h.setDirty(false)
	h.opt.Logf("original configuration restored in %v", time.Since(start).Round(time.Millisecond))
	return nil
}

func (h *Handler) setDirty(d bool) {
	h.mu.Lock()
	h.dirty = d
	h.mu.Unlock()
}
