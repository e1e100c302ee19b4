package systemd_test

import (
	"context"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/systemd"
	"github.com/pgrst-lab/pgrst-lab/systemd/internal/servicetest"
)

// serveHTTP serves h on ln until the test ends.
func serveHTTP(t *testing.T, ln net.Listener, h http.HandlerFunc) {
	srv := &http.Server{Handler: h}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
}

func TestWaitReadyAdminURL(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var calls atomic.Int64
	serveHTTP(t, ln, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/ready" {
			http.NotFound(w, r)
			return
		}
		if calls.Add(1) < 4 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusOK)
	})
	d, err := systemd.WaitReady(context.Background(), systemd.Probe{AdminURL: "http://" + ln.Addr().String(), Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	// 3 failures back off 5+10+20 ms before the 4th probe.
	if n := calls.Load(); n != 4 || d < 35*time.Millisecond {
		t.Fatalf("ready after %d probes in %v, want 4 probes and >= 35ms", n, d)
	}
}

func TestWaitReadyURLOverUnixSocket(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "s.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	var host string
	serveHTTP(t, ln, func(w http.ResponseWriter, r *http.Request) {
		host = r.Host
		if r.URL.Path == "/artists" && r.Method == http.MethodHead {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		w.WriteHeader(http.StatusTeapot)
	})
	p := systemd.Probe{URL: "http://lab/artists", Method: http.MethodHead, UnixSocket: sock, Timeout: 2 * time.Second}
	if _, err := systemd.WaitReady(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	if host != "lab" {
		t.Fatalf("Host header %q, want lab", host)
	}
}

func TestWaitReadyAccept(t *testing.T) {
	addr := servicetest.FreePort(t)
	lnc := make(chan net.Listener, 1)
	go func() {
		time.Sleep(50 * time.Millisecond)
		ln, _ := net.Listen("tcp", addr)
		lnc <- ln
	}()
	d, err := systemd.WaitReady(context.Background(), systemd.Probe{Addr: addr, Timeout: 5 * time.Second})
	if ln := <-lnc; ln != nil {
		ln.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	if d < 50*time.Millisecond {
		t.Fatalf("ready after %v, before the listener existed", d)
	}

	sock := filepath.Join(t.TempDir(), "a.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if _, err := systemd.WaitReady(context.Background(), systemd.Probe{UnixSocket: sock, Timeout: time.Second}); err != nil {
		t.Fatal(err)
	}
}

func TestWaitReadyTimeoutSaysWhat(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	serveHTTP(t, ln, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write([]byte("schema cache not loaded"))
	})
	url := "http://" + ln.Addr().String()
	t0 := time.Now()
	_, err = systemd.WaitReady(context.Background(), systemd.Probe{AdminURL: url, Timeout: 300 * time.Millisecond})
	if err == nil {
		t.Fatal("ready although /ready answers 503")
	}
	if el := time.Since(t0); el > 2*time.Second {
		t.Fatalf("timeout 300ms took %v", el)
	}
	for _, want := range []string{"not ready after", "GET " + url + "/ready", "503", "schema cache not loaded"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}

	_, err = systemd.WaitReady(context.Background(), systemd.Probe{Addr: servicetest.FreePort(t), Timeout: 100 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "TCP connect to") || !strings.Contains(err.Error(), "connection refused") {
		t.Fatalf("TCP timeout error: %v", err)
	}
	if _, err := systemd.WaitReady(context.Background(), systemd.Probe{}); err == nil {
		t.Fatal("empty probe accepted")
	}
}

func TestWaitReadyAdminWants200(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	serveHTTP(t, ln, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	_, err = systemd.WaitReady(context.Background(), systemd.Probe{AdminURL: "http://" + ln.Addr().String() + "/ready", Timeout: 100 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "want 200") {
		t.Fatalf("204 from /ready: %v", err)
	}
}
