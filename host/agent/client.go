package agent

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pgrst-lab/pgrst-lab/internal/textsafe"
)

// ClientOptions configure a Client.
type ClientOptions struct {
	Token []byte      // the agent's bearer token
	TLS   *tls.Config // for https:// agents (CA, client certificate)
	// Driver names this driver in the agent's messages ("host pid 123").
	Driver string
	// RetryFor is how long a call keeps retrying after connection errors
	// (default 30 s); retries reuse the request ID, so nothing runs twice.
	RetryFor time.Duration
	Logf     func(format string, args ...any)
	// AllowPlaintext sends the token over http:// to a host that is not
	// loopback (in clear: only on a network the operator trusts).
	AllowPlaintext bool
}

// Client is a lab.Server (and its windows lab.Windows) on a remote agent.
// Open takes the agent (a lease it renews in the background); Close gives it back.
type Client struct {
	base string
	hc   *http.Client
	opt  ClientOptions
	rid  string // request-ID prefix
	seq  atomic.Int64

	mu      sync.Mutex
	leaseID string
	lost    error
	clock   Clock
	stopHB  context.CancelFunc
	hbDone  chan struct{}
}

// NewClient makes a client of the agent at baseURL (http:// or https://).
func NewClient(baseURL string, opt ClientOptions) (*Client, error) {
	u, err := url.Parse(baseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("agent URL %q: want http://HOST:PORT or https://HOST:PORT", baseURL)
	}
	if len(opt.Token) == 0 {
		return nil, errors.New("agent client: a bearer token is required (--token-file)")
	}
	if u.Scheme == "http" && !loopback(u.Hostname()) && !opt.AllowPlaintext {
		return nil, fmt.Errorf("agent URL %s: plain http to a host that is not loopback would send the bearer token in clear: "+
			"use https:// (the agent's [tls]), or an SSH tunnel (ssh -L 7171:127.0.0.1:7171 HOST, then --agent http://127.0.0.1:7171), "+
			"or --allow-plaintext on a network you trust", u.Redacted())
	}
	if opt.RetryFor <= 0 {
		opt.RetryFor = 30 * time.Second
	}
	if opt.Logf == nil {
		opt.Logf = func(string, ...any) {}
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = opt.TLS
	tr.Proxy = nil // the agent is reached directly, never through a proxy
	// The token goes to this URL only: a redirect (to another host, port or
	// path) is refused, not followed with or without the token.
	noRedirect := func(req *http.Request, _ []*http.Request) error {
		return &redirectError{fmt.Sprintf("agent %s redirected to %s: refused (the token goes only to the agent's own URL)", baseURL, req.URL.Redacted())}
	}
	return &Client{base: strings.TrimRight(u.String(), "/") + "/" + APIVersion, hc: &http.Client{Transport: tr, CheckRedirect: noRedirect},
		opt: opt, rid: newID()[:8]}, nil
}

// URL is the agent's base URL, for messages.
func (c *Client) URL() string { return strings.TrimSuffix(c.base, "/"+APIVersion) }

// StatusError is an error answer of the agent.
type StatusError struct {
	Status int
	Msg    string
	Body   ErrorBody
}

func (e *StatusError) Error() string { return fmt.Sprintf("agent: %s (%d)", e.Msg, e.Status) }

// call is one API call with retries after connection errors and 502-504.
// Calls that change something carry a request ID (the same on every try);
// GETs are safe to repeat anyway.
func (c *Client) call(ctx context.Context, method, path string, in, out any, timeout time.Duration) error {
	var body []byte
	if in != nil {
		var err error
		if body, err = json.Marshal(in); err != nil {
			return fmt.Errorf("%s %s: %w", method, path, err)
		}
	}
	c.mu.Lock()
	leaseID, lost := c.leaseID, c.lost
	c.mu.Unlock()
	if lost != nil && leaseID != "" {
		return lost
	}
	rid := ""
	if method != http.MethodGet {
		rid = fmt.Sprintf("%s-%d", c.rid, c.seq.Add(1))
	}
	deadline := time.Now().Add(c.opt.RetryFor)
	backoff := 100 * time.Millisecond
	for attempt := 1; ; attempt++ {
		err := c.once(ctx, method, path, leaseID, rid, body, out, timeout)
		if err == nil || !retryable(err) || ctx.Err() != nil || time.Now().After(deadline) {
			if err != nil {
				return fmt.Errorf("%s %s: %w", method, path, err)
			}
			return nil
		}
		c.opt.Logf("agent %s: %s %s: %v; retrying (attempt %d)", c.URL(), method, path, err, attempt+1)
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s %s: %w", method, path, ctx.Err())
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, 2*time.Second)
	}
}

func (c *Client) once(ctx context.Context, method, path, leaseID, rid string, body []byte, out any, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+string(c.opt.Token))
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if leaseID != "" {
		req.Header.Set(HeaderLease, leaseID)
	}
	if rid != "" {
		req.Header.Set(HeaderRequestID, rid)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		var re *redirectError
		if errors.As(err, &re) {
			return re // not retried
		}
		return &netError{err}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return &netError{err}
	}
	if resp.StatusCode >= 400 {
		se := &StatusError{Status: resp.StatusCode, Msg: strings.TrimSpace(string(b))}
		if json.Unmarshal(b, &se.Body) == nil && se.Body.Error != "" {
			se.Msg = se.Body.Error
		}
		// The agent's words are printed and filed: no escapes, bounded.
		se.Msg = textsafe.CleanText(se.Msg)
		textsafe.CleanStrings(&se.Body)
		if resp.StatusCode == http.StatusGone {
			c.markLost(se)
		}
		return se
	}
	if out != nil && len(b) > 0 {
		if err := json.Unmarshal(b, out); err != nil {
			return fmt.Errorf("decode answer: %w", err)
		}
		// Every string of every answer (hostname, CPU model, versions,
		// changes, events...) is cleaned here, the one place answers enter.
		textsafe.CleanStrings(out)
	}
	return nil
}

// redirectError is an agent's redirect, which the client refuses.
type redirectError struct{ msg string }

func (e *redirectError) Error() string { return e.msg }

// netError is a failure to reach the agent or read its answer.
type netError struct{ err error }

func (e *netError) Error() string { return e.err.Error() }
func (e *netError) Unwrap() error { return e.err }

func retryable(err error) bool {
	var ne *netError
	if errors.As(err, &ne) {
		return true
	}
	var se *StatusError
	if errors.As(err, &se) {
		return se.Status == http.StatusBadGateway || se.Status == http.StatusServiceUnavailable || se.Status == http.StatusGatewayTimeout
	}
	return false
}

func (c *Client) markLost(se *StatusError) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.lost == nil && c.leaseID != "" {
		c.lost = fmt.Errorf("agent %s: session lost: %s", c.URL(), se.Msg)
	}
}
