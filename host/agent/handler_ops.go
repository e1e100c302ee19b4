package agent

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab/capability"
)

func (h *Handler) apply(ctx context.Context, s *lease, r *http.Request, body []byte) (int, any) {
	var req ApplyRequest
	if err := decode(body, &req); err != nil {
		return http.StatusBadRequest, err
	}
	v := req.Variant.lab()
	if err := h.opt.Policy.Check(v); err != nil {
		var pe *PolicyError
		if errors.As(err, &pe) {
			h.opt.Logf("refused variant %q: %v", v.Name, err)
			return pe.Status, fmt.Errorf("variant %s: %w", v.Name, err)
		}
		return http.StatusBadRequest, err
	}
	h.op.Lock()
	defer h.op.Unlock()
	// The lease is checked again now that the body is read and no restore
	// runs: a body trickled in past the lease is not applied.
	if !h.leases.holds(s) {
		return http.StatusGone, fmt.Errorf("session %s is not live: its lease ended while the request was read; nothing was applied", s.id)
	}
	h.setDirty(true)
	ctx, cancel := detached(ctx, h.opt.ApplyTimeout)
	defer cancel()
	start := time.Now()
	applied, err := h.srv.Apply(ctx, v)
	var ce *capability.Error
	if err != nil && errors.As(err, &ce) {
		// The server side refused before changing anything (e.g. a db-uri
		// that logs in as a superuser): as a policy refusal.
		var pe *PolicyError
		if errors.As(fromCapability(ce), &pe) {
			h.opt.Logf("refused variant %q: %s", v.Name, h.logSafe(err))
			return pe.Status, errors.New(h.publicError(err))
		}
	}
	if err != nil {
		h.opt.Logf("apply %q: %s", v.Name, h.logSafe(err))
		a := appliedV1(applied)
		return http.StatusInternalServerError, ErrorBody{Error: h.publicError(err), Applied: &a}
	}
	h.opt.Logf("applied %s in %v (ready after %v)", v.Name, time.Since(start).Round(time.Millisecond), applied.ReadyAfter.Round(time.Millisecond))
	return http.StatusOK, appliedV1(applied)
}

func (h *Handler) restore(ctx context.Context, s *lease, r *http.Request, body []byte) (int, any) {
	if err := decode(body, &struct{}{}); err != nil {
		return http.StatusBadRequest, err
	}
	h.op.Lock()
	defer h.op.Unlock()
	if !h.leases.holds(s) {
		return http.StatusGone, fmt.Errorf("session %s is not live: its lease ended; the agent restores by itself", s.id)
	}
	ctx, cancel := detached(ctx, h.opt.ApplyTimeout)
	defer cancel()
	if err := h.srv.Restore(ctx); err != nil {
		h.opt.Logf("restore: %s", h.logSafe(err))
		return http.StatusInternalServerError, fmt.Errorf("restore: %s", h.publicError(err))
	}
	h.setDirty(false)
	return http.StatusOK, struct{}{}
}

func (h *Handler) watch(ctx context.Context, s *lease, r *http.Request, body []byte) (int, any) {
	if err := decode(body, &struct{}{}); err != nil {
		return http.StatusBadRequest, err
	}
	// Each window holds a PostgreSQL connection and a sampler: a lease
	// gets at most MaxWindows recording at once.
	if !s.windows.reserve(h.opt.MaxWindows) {
		return http.StatusTooManyRequests, fmt.Errorf("this session already has %d telemetry windows recording; stop one first", h.opt.MaxWindows)
	}
	if !h.leases.holds(s) {
		s.windows.release()
		return http.StatusGone, fmt.Errorf("session %s is not live", s.id)
	}
	// The recording lives on after this call, until stop (or the end of
	// the lease): its context must not end with the request.
	wctx, cancel := detached(ctx, h.opt.WindowMax)
	lw, err := h.srv.Watch(wctx)
	if err != nil {
		cancel()
		s.windows.release()
		h.opt.Logf("watch: %s", h.logSafe(err))
		return http.StatusInternalServerError, fmt.Errorf("watch: %s", h.publicError(err))
	}
	win, ok := s.windows.add(lw, h.now().UnixNano(), cancel)
	if !ok {
		// The lease ended while the window was being set up: its
		// windows were stopped already, so this one is stopped here.
		sctx, scancel := detached(ctx, h.opt.CallTimeout)
		_, _ = lw.Stop(sctx, 0)
		scancel()
		cancel()
		s.windows.release()
		return http.StatusGone, fmt.Errorf("session %s ended while the window started; it was stopped", s.id)
	}
	return http.StatusCreated, WindowStarted{ID: win.id, Started: win.started}
}

// stop ends a window once; later stops of the same window (a retry whose
// first answer was lost) get the kept telemetry.
func (h *Handler) stop(ctx context.Context, s *lease, r *http.Request, body []byte) (int, any) {
	var req StopRequest
	if err := decode(body, &req); err != nil {
		return http.StatusBadRequest, err
	}
	win, ok := s.windows.get(r.PathValue("id"))
	if !ok {
		return http.StatusNotFound, fmt.Errorf("no window %q in this session", r.PathValue("id"))
	}
	win.mu.Lock()
	defer win.mu.Unlock()
	if !win.stopped {
		ctx, cancel := detached(ctx, h.opt.CallTimeout)
		defer cancel()
		tel, err := win.w.Stop(ctx, req.Requests)
		win.cancel()
		win.stopped, win.tel = true, tel
		s.windows.release()
		if err != nil {
			win.err = h.publicError(err)
		}
	}
	return windowAnswer(win)
}

func windowAnswer(win *window) (int, any) {
	if win.err != "" {
		return http.StatusInternalServerError, fmt.Errorf("telemetry: %s", win.err)
	}
	return http.StatusOK, telemetryV1(win.tel)
}

func (h *Handler) fetch(w http.ResponseWriter, r *http.Request, s *lease) {
	win, ok := s.windows.get(r.PathValue("id"))
	if !ok {
		writeError(w, http.StatusNotFound, fmt.Errorf("no window %q in this session", r.PathValue("id")))
		return
	}
	if !win.mu.TryLock() {
		writeError(w, http.StatusConflict, fmt.Errorf("window %s is being stopped", win.id))
		return
	}
	defer win.mu.Unlock()
	if !win.stopped {
		writeError(w, http.StatusConflict, fmt.Errorf("window %s is still recording", win.id))
		return
	}
	status, v := windowAnswer(win)
	writeJSON(w, status, v)
}

func (h *Handler) forget(w http.ResponseWriter, r *http.Request, s *lease) {
	if win, ok := s.windows.get(r.PathValue("id")); ok {
		if !win.mu.TryLock() {
			writeError(w, http.StatusConflict, fmt.Errorf("window %s is being stopped", win.id))
			return
		}
		stopped := win.stopped
		win.mu.Unlock()
		if !stopped {
			writeError(w, http.StatusConflict, fmt.Errorf("window %s is still recording: stop it first", win.id))
			return
		}
	}
	if !s.windows.remove(r.PathValue("id")) {
		writeError(w, http.StatusNotFound, fmt.Errorf("no window %q in this session", r.PathValue("id")))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
