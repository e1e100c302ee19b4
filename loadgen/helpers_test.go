package loadgen

import (
	"context"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// server is a real HTTP server on loopback (or a Unix socket) for tests.
type server struct {
	URL  string
	Sock string
	srv  *http.Server
	ln   net.Listener
	hits atomic.Int64
}

func startServer(t testing.TB, h http.HandlerFunc) *server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return serve(t, ln, h)
}

func startUnixServer(t testing.TB, h http.HandlerFunc) *server {
	t.Helper()
	p := filepath.Join(t.TempDir(), "s.sock")
	ln, err := net.Listen("unix", p)
	if err != nil {
		t.Fatal(err)
	}
	s := serve(t, ln, h)
	s.URL, s.Sock = "http://localhost", p
	return s
}

func serve(t testing.TB, ln net.Listener, h http.HandlerFunc) *server {
	s := &server{URL: "http://" + ln.Addr().String(), ln: ln}
	s.srv = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		h(w, r)
	}), ReadHeaderTimeout: 5 * time.Second}
	go s.srv.Serve(ln)
	t.Cleanup(func() { s.kill() })
	return s
}

// kill stops the server at once: listener and every connection closed.
// The listener is closed here too: srv.Close does not close it when Serve
// has not started tracking it yet, and a dial would then still succeed.
func (s *server) kill() {
	s.srv.Close()
	s.ln.Close()
}

func okHandler(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain")
	w.Write([]byte(strings.Repeat("x", 200)))
}

func simpleMix(path string) []Weighted {
	return []Weighted{{Scenario: Scenario{Name: "t", Requests: []Request{{Method: "GET", Path: path, Expect: 200}}}, Weight: 1}}
}

func run(t testing.TB, cfg Config) *Result {
	t.Helper()
	return runP(t, cfg, nil)
}

func runP(t testing.TB, cfg Config, progress func(Progress)) *Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), cfg.Warmup+cfg.Duration+30*time.Second)
	defer cancel()
	if cfg.Seed == 0 {
		cfg.Seed = 1
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = 5 * time.Second
	}
	res, err := Run(ctx, cfg, progress)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func openFDs(t testing.TB) int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(ents)
}

// settle waits for goroutines/fds to come back to a level (they end
// asynchronously) and returns the last count.
func settle(want int, count func() int) int {
	n := count()
	for i := 0; i < 100 && n > want; i++ {
		time.Sleep(20 * time.Millisecond)
		runtime.GC()
		n = count()
	}
	return n
}
