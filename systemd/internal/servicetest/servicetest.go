// Package servicetest holds what the tests of the systemd packages share:
// a small HTTP server (labserver) to run as a unit, installing it under a
// unique name for one test, and starting, restarting and inspecting it
// through any systemd.Controller. The D-Bus controller's tests, the direct
// supervisor's tests and the behaviour suite both run use it.
package servicetest

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/systemd"
)

var (
	binDir     string
	buildOnce  sync.Once
	serverPath string
	buildErr   error
	unitSeq    atomic.Int64
)

// Run runs the tests and removes the labserver binary afterwards; call it
// from TestMain: os.Exit(servicetest.Run(m)).
func Run(m *testing.M) int {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	return code
}

// LabServer builds labserver once per test binary and returns its path.
func LabServer(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "systemd-test-bin-")
		if buildErr != nil {
			return
		}
		os.Chmod(binDir, 0o755) // units may run as another user
		serverPath = filepath.Join(binDir, "labserver")
		const pkg = "github.com/pgrst-lab/pgrst-lab/systemd/internal/servicetest/labserver"
		out, err := exec.Command("go", "build", "-o", serverPath, pkg).CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build labserver: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return serverPath
}

// UnitName is unique per test binary and call.
func UnitName() string {
	return fmt.Sprintf("labtest-%d-%d.service", os.Getpid(), unitSeq.Add(1))
}

// FreePort returns a loopback address nothing listens on right now.
func FreePort(t testing.TB) string {
	t.Helper()
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(labtest.FreePort(t)))
}

// Ctx is a context that ends after a minute or with the test.
func Ctx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// Server is a labserver unit installed for one test.
type Server struct {
	Ctl  systemd.Controller
	Spec systemd.UnitSpec
	Addr string
}

// URL is http://<Addr><path>.
func (s Server) URL(path string) string { return "http://" + s.Addr + path }

// Probe waits for GET / to answer, failing early when the unit dies.
func (s Server) Probe() systemd.Probe {
	return systemd.Probe{URL: s.URL("/"), Timeout: 10 * time.Second, Controller: s.Ctl, Unit: s.Spec.Name}
}

// InstallServer installs (not starts) a labserver unit, after edit
// changed its spec, and uninstalls it at the end of the test.
func InstallServer(t testing.TB, ctl systemd.Controller, edit func(*systemd.UnitSpec)) Server {
	t.Helper()
	addr := FreePort(t)
	spec := systemd.UnitSpec{
		Name:         UnitName(),
		Description:  "systemd package test server",
		ExecStart:    []string{LabServer(t), "-addr", addr},
		LogFile:      filepath.Join(t.TempDir(), "server.log"),
		ReloadSignal: "SIGUSR2",
		StopTimeout:  3 * time.Second,
	}
	if edit != nil {
		edit(&spec)
	}
	Install(t, ctl, spec)
	return Server{Ctl: ctl, Spec: spec, Addr: addr}
}

// Install installs spec and uninstalls it at the end of the test.
func Install(t testing.TB, ctl systemd.Controller, spec systemd.UnitSpec) {
	t.Helper()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		if err := ctl.Uninstall(ctx, spec.Name); err != nil {
			t.Errorf("cleanup: %v", err)
		}
	})
	if err := ctl.Install(Ctx(t), spec); err != nil {
		t.Fatal(err)
	}
}

// Start starts the unit and waits until it answers; it returns how long
// the readiness wait took.
func Start(t testing.TB, s Server) time.Duration {
	t.Helper()
	if err := s.Ctl.Start(Ctx(t), s.Spec.Name); err != nil {
		t.Fatal(err)
	}
	d, err := systemd.WaitReady(Ctx(t), s.Probe())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// Restart restarts the unit and waits until it answers; it returns how
// long both took.
func Restart(t testing.TB, s Server) time.Duration {
	t.Helper()
	t0 := time.Now()
	if err := s.Ctl.Restart(Ctx(t), s.Spec.Name); err != nil {
		t.Fatal(err)
	}
	if _, err := systemd.WaitReady(Ctx(t), s.Probe()); err != nil {
		t.Fatal(err)
	}
	return time.Since(t0)
}

// Get returns the body of GET url.
func Get(t testing.TB, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Props reads the unit's properties.
func Props(t testing.TB, ctl systemd.Controller, name string) systemd.Props {
	t.Helper()
	p, err := ctl.Properties(Ctx(t), name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// EnvironOf reads /proc/PID/environ as a list of K=V.
func EnvironOf(t testing.TB, pid int) []string {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
}

// Running reports whether pid is a process that has not exited (a zombie,
// exited but not reaped, counts as exited).
func Running(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')') // the command name may contain spaces and parentheses
	return i < 0 || i+2 >= len(s) || (s[i+2] != 'Z' && s[i+2] != 'X')
}
