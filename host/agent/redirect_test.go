package agent

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// An agent URL that redirects (here to another server on loopback) gets
// the token; the place it redirects to never does: the client refuses the
// redirect at once instead of retrying or following it.
func TestClientRefusesRedirects(t *testing.T) {
	var leaked atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" {
			leaked.Add(1)
		}
		w.WriteHeader(http.StatusOK)
	}))
	defer other.Close()
	var asked atomic.Int32
	agentSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer agentSrv.Close()
	c, err := NewClient(agentSrv.URL, ClientOptions{Token: []byte("token-0123456789abcdef")})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, _, err = c.Describe(ctx)
	if err == nil || !strings.Contains(err.Error(), "redirected to") {
		t.Fatalf("describe through a redirect: %v, want the redirect refused", err)
	}
	if leaked.Load() != 0 || asked.Load() != 1 {
		t.Errorf("the other server saw the token %d times; the agent was asked %d times (want 0 and 1: no retries)", leaked.Load(), asked.Load())
	}
}
