package telemetry

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
)

func TestMain(m *testing.M) {
	if os.Getenv(allocEnv) != "" {
		allocate()
	}
	labtest.Main(m)
}

// allocEnv makes the test binary a memory hog instead of running tests:
// the OOM tests start it in a unit with a small MemoryMax.
const allocEnv = "TELEMETRY_TEST_ALLOC"

// allocate waits half a second (so the watcher sees its PID), then
// allocates and touches memory 1 MiB at a time, up to 1 GiB, then exits 3.
func allocate() {
	time.Sleep(500 * time.Millisecond)
	var keep [][]byte
	for i := 0; i < 1024; i++ {
		b := make([]byte, 1<<20)
		for j := 0; j < len(b); j += 4096 {
			b[j] = 1
		}
		keep = append(keep, b)
	}
	fmt.Println(len(keep))
	os.Exit(3)
}

// unitName is a transient unit name unique to this test binary.
func unitName(kind string) string {
	return fmt.Sprintf("labtest-%s-%d-%d.service", kind, os.Getpid(), time.Now().UnixNano()%1e6)
}

// systemdRun starts a transient user unit running argv with the given
// properties and stops it (and clears its failed state) at cleanup. It
// returns the unit's ControlGroup.
func systemdRun(t testing.TB, unit string, props []string, argv ...string) string {
	t.Helper()
	labtest.RequireSystemd(t)
	args := []string{"--user", "--unit=" + unit, "--quiet"}
	for _, p := range props {
		args = append(args, "-p", p)
	}
	args = append(args, argv...)
	if out, err := exec.Command("systemd-run", args...).CombinedOutput(); err != nil {
		t.Fatalf("systemd-run %v: %v: %s", args, err, out)
	}
	t.Cleanup(func() {
		_ = exec.Command("systemctl", "--user", "stop", unit).Run()
		_ = exec.Command("systemctl", "--user", "reset-failed", unit).Run()
	})
	return "/app.slice/" + unit
}

// unitProps reads properties of a user unit with systemctl show.
func unitProps(t testing.TB, unit string, names ...string) map[string]string {
	t.Helper()
	out, err := exec.Command("systemctl", "--user", "show", unit, "-p", strings.Join(names, ",")).Output()
	if err != nil {
		t.Fatalf("systemctl show %s: %v", unit, err)
	}
	m := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			m[k] = v
		}
	}
	return m
}

func mainPID(t testing.TB, unit string) int {
	pid, _ := strconv.Atoi(unitProps(t, unit, "MainPID")["MainPID"])
	return pid
}

// startTree starts `sh -c script` in its own process group and kills the
// group at cleanup.
func startTree(t testing.TB, script string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("sh", "-c", script)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
	})
	return cmd
}

// waitFor polls cond every 20 ms until it holds or d passes.
func waitFor(t testing.TB, d time.Duration, what string, cond func() bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	for !cond() {
		select {
		case <-ctx.Done():
			t.Fatalf("timed out after %v waiting for %s", d, what)
		case <-time.After(20 * time.Millisecond):
		}
	}
}
