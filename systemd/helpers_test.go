package systemd

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

var (
	binDir     string
	buildOnce  sync.Once
	serverPath string
	buildErr   error
	unitSeq    atomic.Int64
)

func TestMain(m *testing.M) {
	if dir := os.Getenv("LAB_DIRECT_DIR"); dir != "" {
		directHelper(dir, os.Getenv("LAB_DIRECT_UNIT"))
	}
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// labServer builds testdata/labserver once per test binary.
func labServer(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "systemd-test-bin-")
		if buildErr != nil {
			return
		}
		os.Chmod(binDir, 0o755) // units may run as another user
		serverPath = filepath.Join(binDir, "labserver")
		out, err := exec.Command("go", "build", "-o", serverPath, "./testdata/labserver").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build labserver: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return serverPath
}

// unitName is unique per test binary and call.
func unitName() string {
	return fmt.Sprintf("labtest-%d-%d.service", os.Getpid(), unitSeq.Add(1))
}

func freePort(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// server is a labserver unit installed for one test.
type server struct {
	ctl  Controller
	spec UnitSpec
	addr string
}

func (s server) url(path string) string { return "http://" + s.addr + path }

func (s server) probe() Probe {
	return Probe{URL: s.url("/"), Timeout: 10 * time.Second, Controller: s.ctl, Unit: s.spec.Name}
}

// installServer installs (not starts) a labserver unit and uninstalls it
// at the end of the test.
func installServer(t testing.TB, ctl Controller, edit func(*UnitSpec)) server {
	t.Helper()
	addr := freePort(t)
	spec := UnitSpec{
		Name:         unitName(),
		Description:  "systemd package test server",
		ExecStart:    []string{labServer(t), "-addr", addr},
		LogFile:      filepath.Join(t.TempDir(), "server.log"),
		ReloadSignal: "SIGUSR2",
		StopTimeout:  3 * time.Second,
	}
	if edit != nil {
		edit(&spec)
	}
	install(t, ctl, spec)
	return server{ctl: ctl, spec: spec, addr: addr}
}

func install(t testing.TB, ctl Controller, spec UnitSpec) {
	t.Helper()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		if err := ctl.Uninstall(ctx, spec.Name); err != nil {
			t.Errorf("cleanup: %v", err)
		}
	})
	if err := ctl.Install(testCtx(t), spec); err != nil {
		t.Fatal(err)
	}
}

func get(t testing.TB, url string) string {
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

func props(t testing.TB, ctl Controller, name string) Props {
	t.Helper()
	p, err := ctl.Properties(testCtx(t), name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// environOf reads /proc/PID/environ as a list of K=V.
func environOf(t testing.TB, pid int) []string {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }
