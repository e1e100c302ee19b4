package server

import (
	"context"
	"io"
	"net"
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
)

func TestMain(m *testing.M) { labtest.Main(m) }

// testServer is an in-process postgrest-mini on a loopback port.
type testServer struct {
	*Server
	base   string
	admin  string
	client *fasthttp.Client
}

// start runs a server for db-uri uri until the test ends and waits until
// its schema cache is loaded.
func start(t testing.TB, uri string, tweak func(*Options)) *testServer {
	t.Helper()
	o := Defaults()
	o.DBURI = uri
	o.AnonRole = "web_anon"
	o.Host = "127.0.0.1"
	o.Port = 0
	o.AdminHost = "127.0.0.1"
	o.AdminPort = 0
	o.LogLevel = LogCrit
	o.AccessLog = io.Discard
	o.ErrorLog = io.Discard
	if tweak != nil {
		tweak(&o)
	}
	s, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Listen(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Serve: %v", err)
			}
		case <-time.After(15 * time.Second):
			t.Errorf("server did not stop")
		}
	})
	ts := &testServer{Server: s, client: &fasthttp.Client{MaxConnsPerHost: 64}}
	if o.UnixSocket != "" {
		ts.base = "http://unix"
		path := o.UnixSocket
		ts.client.Dial = func(string) (net.Conn, error) { return net.Dial("unix", path) }
	} else {
		ts.base = "http://" + s.Addr().String()
	}
	if a := s.AdminAddr(); a != nil {
		ts.admin = "http://" + a.String()
	}
	deadline := time.Now().Add(20 * time.Second)
	for !s.Ready() {
		if time.Now().After(deadline) {
			t.Fatal("schema cache not loaded after 20s")
		}
		time.Sleep(20 * time.Millisecond)
	}
	return ts
}

// do sends a request and returns status and body.
func (ts *testServer) do(t testing.TB, method, path string, body []byte, headers ...string) (int, []byte, *fasthttp.ResponseHeader) {
	t.Helper()
	req := fasthttp.AcquireRequest()
	resp := fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	req.SetRequestURI(ts.base + path)
	req.URI().DisablePathNormalizing = true
	req.Header.SetMethod(method)
	if body != nil {
		req.Header.SetContentType("application/json")
		req.SetBody(body)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	if err := ts.client.DoTimeout(req, resp, 30*time.Second); err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	var h fasthttp.ResponseHeader
	resp.Header.CopyTo(&h)
	return resp.StatusCode(), append([]byte(nil), resp.Body()...), &h
}

func (ts *testServer) get(t testing.TB, path string) (int, []byte) {
	t.Helper()
	st, b, _ := ts.do(t, "GET", path, nil)
	return st, b
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func newClient() *fasthttp.Client { return &fasthttp.Client{MaxConnsPerHost: 64} }

func (ts *testServer) adminStatus(t testing.TB, path string) int {
	t.Helper()
	st, _, err := ts.client.GetTimeout(nil, ts.admin+path, 5*time.Second)
	must(t, err)
	return st
}

func (ts *testServer) adminBody(t testing.TB, path string) string {
	t.Helper()
	_, b, err := ts.client.GetTimeout(nil, ts.admin+path, 5*time.Second)
	must(t, err)
	return string(b)
}
