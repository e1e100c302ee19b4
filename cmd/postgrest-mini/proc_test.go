package main

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
)

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

func TestMain(m *testing.M) { labtest.Main(removeBinary{m}) }

// removeBinary deletes the built binary after the tests.
type removeBinary struct{ m *testing.M }

func (r removeBinary) Run() int {
	code := r.m.Run()
	if binPath != "" {
		_ = os.RemoveAll(filepath.Dir(binPath))
	}
	return code
}

// binary builds postgrest-mini once per test binary.
func binary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "postgrest-mini-bin-")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "postgrest-mini")
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v: %s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// syncBuffer collects a process's output.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// proc is a running postgrest-mini process.
type proc struct {
	cmd            *exec.Cmd
	stdout, stderr *syncBuffer
	api, admin     string // base URLs
	client         *fasthttp.Client
	done           chan error
}

// startProc writes config (text appended to server and admin settings
// chosen here) and runs postgrest-mini on it until the test ends; it waits
// for /ready like the lab does (poll every 0.1 s).
// env adds environment variables (e.g. PGRST_* overrides).
func startProc(t testing.TB, db labtest.DB, dbURI, extra string, unixHTTP bool, env ...string) *proc {
	t.Helper()
	dir := t.TempDir()
	adminPort := labtest.FreePort(t)
	cfg := fmt.Sprintf("db-uri = %q\ndb-schemas = \"public\"\ndb-anon-role = \"web_anon\"\nserver-host = \"127.0.0.1\"\nadmin-server-port = %d\n", dbURI, adminPort)
	p := &proc{stdout: &syncBuffer{}, stderr: &syncBuffer{}, admin: fmt.Sprintf("http://127.0.0.1:%d", adminPort), client: &fasthttp.Client{MaxConnsPerHost: 256}, done: make(chan error, 1)}
	if unixHTTP {
		sock := filepath.Join(dir, "api.sock")
		cfg += fmt.Sprintf("server-unix-socket = %q\n", sock)
		p.api = "http://unix"
		p.client.Dial = func(addr string) (net.Conn, error) {
			if addr == "unix:80" || addr == "unix" {
				return net.Dial("unix", sock)
			}
			return fasthttp.Dial(addr)
		}
	} else {
		port := labtest.FreePort(t)
		cfg += fmt.Sprintf("server-port = %d\n", port)
		p.api = fmt.Sprintf("http://127.0.0.1:%d", port)
	}
	cfg += extra
	path := filepath.Join(dir, "postgrest.conf")
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	p.cmd = exec.Command(binary(t), path)
	p.cmd.Stdout, p.cmd.Stderr = p.stdout, p.stderr
	p.cmd.Env = append(os.Environ(), env...)
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.done <- p.cmd.Wait() }()
	t.Cleanup(func() { p.stop(t) })
	deadline := time.Now().Add(20 * time.Second)
	for {
		if st, _, err := p.client.GetTimeout(nil, p.admin+"/ready", time.Second); err == nil && st == 200 {
			return p
		}
		select {
		case err := <-p.done:
			t.Fatalf("postgrest-mini exited before ready: %v\nstderr: %s", err, p.stderr)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("not ready after 20 s; stderr: %s", p.stderr)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// stop sends SIGTERM and waits; it reports the exit error (nil = status 0).
func (p *proc) stop(t testing.TB) error {
	if p.cmd.ProcessState != nil {
		return nil
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-p.done:
		p.done <- err
		return err
	case <-time.After(15 * time.Second):
		_ = p.cmd.Process.Kill()
		t.Errorf("postgrest-mini ignored SIGTERM for 15 s")
		return fmt.Errorf("killed")
	}
}

func (p *proc) get(t testing.TB, path string) (int, []byte) {
	t.Helper()
	st, b, err := p.client.GetTimeout(nil, p.api+path, 30*time.Second)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	return st, b
}
