package agent

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"
)

func (h *Handler) apply(ctx context.Context, s *session, r *http.Request, body []byte) (int, any) {
	var req ApplyRequest
	if err := decode(body, &req); err != nil {
		return http.StatusBadRequest, err
	}
	if err := h.opt.Policy.Check(req.Variant); err != nil {
		var pe *PolicyError
		if errors.As(err, &pe) {
			h.opt.Logf("refused variant %q: %v", req.Variant.Name, err)
			return pe.Status, fmt.Errorf("variant %s: %w", req.Variant.Name, err)
		}
		return http.StatusBadRequest, err
	}
	h.setDirty(true)
	ctx, cancel := detached(ctx, h.opt.ApplyTimeout)
	defer cancel()
	start := time.Now()
	applied, err := h.srv.Apply(ctx, req.Variant)
	if err != nil {
		h.opt.Logf("apply %s: %v", req.Variant.Name, err)
		return http.StatusInternalServerError, ErrorBody{Error: err.Error(), Applied: &applied}
	}
	h.opt.Logf("applied %s in %v (ready after %v)", req.Variant.Name, time.Since(start).Round(time.Millisecond), applied.ReadyAfter.Round(time.Millisecond))
	return http.StatusOK, applied
}

func (h *Handler) restore(ctx context.Context, s *session, r *http.Request, body []byte) (int, any) {
	if err := decode(body, &struct{}{}); err != nil {
		return http.StatusBadRequest, err
	}
	ctx, cancel := detached(ctx, h.opt.ApplyTimeout)
	defer cancel()
	if err := h.srv.Restore(ctx); err != nil {
		return http.StatusInternalServerError, fmt.Errorf("restore: %w", err)
	}
	h.setDirty(false)
	return http.StatusOK, struct{}{}
}

func (h *Handler) watch(ctx context.Context, s *session, r *http.Request, body []byte) (int, any) {
	if err := decode(body, &struct{}{}); err != nil {
		return http.StatusBadRequest, err
	}
	// The recording lives on after this call, until stop (or the end of
	// the session): its context must not end with the request.
	wctx, cancel := detached(ctx, h.opt.WindowMax)
	lw, err := h.srv.Watch(wctx)
	if err != nil {
		cancel()
		return http.StatusInternalServerError, fmt.Errorf("watch: %w", err)
	}
	win := s.windows.add(lw, h.now().UnixNano(), cancel)
	return http.StatusCreated, WindowStarted{ID: win.id, Started: win.started}
}

// stop ends a window once; later stops of the same window (a retry whose
// first answer was lost) get the kept telemetry.
func (h *Handler) stop(ctx context.Context, s *session, r *http.Request, body []byte) (int, any) {
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
		if err != nil {
			win.err = err.Error()
		}
	}
	return windowAnswer(win)
}

func windowAnswer(win *window) (int, any) {
	if win.err != "" {
		return http.StatusInternalServerError, fmt.Errorf("telemetry: %s", win.err)
	}
	return http.StatusOK, win.tel
}

func (h *Handler) fetch(w http.ResponseWriter, r *http.Request, s *session) {
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

func (h *Handler) forget(w http.ResponseWriter, r *http.Request, s *session) {
	if !s.windows.remove(r.PathValue("id")) {
		writeError(w, http.StatusNotFound, fmt.Errorf("no window %q in this session", r.PathValue("id")))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
