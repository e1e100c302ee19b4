package agent

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"
)

func (h *Handler) health(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, Health{OK: true, API: APIVersion, Version: h.opt.Version, Leased: h.leases.live()})
}

// clock answers with the agent's clock at receipt and at sending: with the
// client's own send and receive times this gives the offset NTP-style.
func (h *Handler) clock(w http.ResponseWriter, r *http.Request) {
	recv := h.now()
	writeJSON(w, http.StatusOK, ClockReading{Received: recv.UnixNano(), Sent: h.now().UnixNano()})
}

func (h *Handler) describe(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), h.opt.CallTimeout)
	defer cancel()
	host, target, err := h.srv.Describe(ctx)
	if err != nil {
		writeError(w, http.StatusInternalServerError, fmt.Errorf("describe: %w", err))
		return
	}
	if h.opt.AdvertiseURL != "" {
		target.URL = h.opt.AdvertiseURL
	}
	if h.opt.HostID != "" {
		host.HostID = h.opt.HostID
	}
	writeJSON(w, http.StatusOK, Description{Host: hostV1(host), Target: targetInfoV1(target)})
}

func (h *Handler) openLease(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		writeBodyError(w, err)
		return
	}
	var req LeaseRequest
	if err := decode(body, &req); err != nil {
		writeError(w, http.StatusBadRequest, err)
		return
	}
	if err := cleanText("driver", req.Driver); err != nil {
		writeError(w, http.StatusBadRequest, err)
		return
	}
	s, holder, ok := h.leases.open(req.Driver)
	if !ok {
		if holder == nil {
			writeError(w, http.StatusConflict, fmt.Errorf("agent busy: restoring after the previous driver; try again in a few seconds"))
			return
		}
		writeError(w, http.StatusConflict, fmt.Errorf("agent busy: driven by %q since %s", holder.driver, holder.started.UTC().Format(time.RFC3339)))
		return
	}
	h.opt.Logf("session %s opened by %q (lease %v)", s.id, s.driver, s.term)
	writeJSON(w, http.StatusCreated, Lease{ID: s.id, LeaseMs: s.term.Milliseconds()})
}

func (h *Handler) renewLease(w http.ResponseWriter, r *http.Request) {
	id := r.Header.Get(HeaderLease)
	s, ok := h.leases.renew(id)
	if !ok {
		writeError(w, http.StatusGone, fmt.Errorf("session %q is not live (its lease expired or it was closed; the agent restored the original configuration)", id))
		return
	}
	writeJSON(w, http.StatusOK, Lease{ID: s.id, LeaseMs: s.term.Milliseconds()})
}

// closeLease ends the lease; a variant still in place is restored
// before the answer.
func (h *Handler) closeLease(w http.ResponseWriter, r *http.Request) {
	id := r.Header.Get(HeaderLease)
	s, ok := h.leases.close(id)
	if !ok {
		writeError(w, http.StatusGone, fmt.Errorf("session %q is not live", id))
		return
	}
	ctx := context.WithoutCancel(r.Context())
	h.stopWindows(ctx, s)
	if err := h.restoreIfDirty(ctx, "session closed"); err != nil {
		// Keep trying after the answer; no new lease starts before.
		h.opt.Logf("session %s closed, restore failed: %s", s.id, h.logSafe(err))
		go func() {
			defer h.leases.cleaned()
			_ = h.restoreRetrying(context.Background(), "session closed")
		}()
		writeError(w, http.StatusInternalServerError, fmt.Errorf("session closed; restore failed, the agent keeps retrying: %s", h.publicError(err)))
		return
	}
	h.leases.cleaned()
	h.opt.Logf("session %s closed", s.id)
	w.WriteHeader(http.StatusNoContent)
}
