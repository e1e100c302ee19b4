package agent

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// op is a mutating operation: it gets the lease and the raw body and
// returns a status and the answer (an error becomes an ErrorBody).
type op func(ctx context.Context, s *lease, r *http.Request, body []byte) (int, any)

// mutating wraps an op with the lease check, the body limit and the
// request-ID reply cache.
func (h *Handler) mutating(fn op) http.HandlerFunc {
	return h.withLease(func(w http.ResponseWriter, r *http.Request, s *lease) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			writeBodyError(w, err)
			return
		}
		id := r.Header.Get(HeaderRequestID)
		if id == "" {
			status, v := fn(r.Context(), s, r, body)
			writeJSON(w, status, v)
			return
		}
		key := r.Method + " " + r.URL.Path + " " + id
		sum := sha256.Sum256(body)
		rep, first := s.replies.claim(key, sum)
		if rep == nil {
			writeError(w, http.StatusConflict, fmt.Errorf("request ID %q was used before with another body; use a new ID for a new request", id))
			return
		}
		if first {
			status, v := fn(r.Context(), s, r, body)
			b, _ := marshal(v)
			rep.finish(status, b)
		} else {
			select {
			case <-rep.done:
			case <-r.Context().Done():
				return
			}
		}
		writeRaw(w, rep.status, rep.body)
	})
}

// withLease resolves the Lab-Session header to the live lease.
func (h *Handler) withLease(fn func(w http.ResponseWriter, r *http.Request, s *lease)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get(HeaderLease)
		if id == "" {
			writeError(w, http.StatusBadRequest, fmt.Errorf("no %s header: open a session first (POST /%s/session)", HeaderLease, APIVersion))
			return
		}
		s, ok := h.leases.get(id)
		if !ok {
			writeError(w, http.StatusGone, fmt.Errorf("session %s is not live (its lease expired or it was closed; the agent restored the original configuration)", id))
			return
		}
		fn(w, r, s)
	}
}

// decode reads strict JSON: unknown fields (a path, a unit) are refused.
func decode(body []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(body))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return fmt.Errorf("request body: %w", err)
	}
	if d.More() {
		return errors.New("request body: more than one JSON value")
	}
	return nil
}

func writeBodyError(w http.ResponseWriter, err error) {
	var mb *http.MaxBytesError
	if errors.As(err, &mb) {
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Errorf("request body larger than %d bytes", mb.Limit))
		return
	}
	writeError(w, http.StatusBadRequest, fmt.Errorf("read request body: %w", err))
}

func writeError(w http.ResponseWriter, status int, err error) {
	writeJSON(w, status, ErrorBody{Error: err.Error()})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":"encode answer"}`)
	}
	writeRaw(w, status, b)
}

func marshal(v any) ([]byte, error) {
	if err, ok := v.(error); ok {
		v = ErrorBody{Error: err.Error()}
	}
	return json.Marshal(v)
}

func writeRaw(w http.ResponseWriter, status int, b []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}
