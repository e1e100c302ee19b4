package systemd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab/labtest"
)

// impl makes a controller for the behaviour suite. Calling it twice in one
// test gives two controllers of the same manager (or state dir), as two lab
// processes would have.
type impl struct {
	name string
	new  func(t testing.TB) func(t testing.TB) Controller
}

func impls() []impl {
	return []impl{
		{"dbus", func(t testing.TB) func(t testing.TB) Controller {
			labtest.RequireSystemd(t)
			return func(t testing.TB) Controller {
				ctl, err := NewDBus(testCtx(t), DBusOptions{})
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { ctl.Close() })
				return ctl
			}
		}},
		{"direct", func(t testing.TB) func(t testing.TB) Controller {
			dir := t.TempDir()
			return func(t testing.TB) Controller {
				ctl, err := NewDirect(dir)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { ctl.Close() })
				return ctl
			}
		}},
	}
}

// TestBehaviour runs the same behaviour tests against the D-Bus controller
// (real systemd user manager) and the direct supervisor.
func TestBehaviour(t *testing.T) {
	tests := []struct {
		name string
		fn   func(t *testing.T, newCtl func(t testing.TB) Controller)
	}{
		{"StartRestartStop", testStartRestartStop},
		{"SecondControllerSeesUnit", testSecondController},
		{"DropInEnvironment", testDropInEnvironment},
		{"SignalAndReload", testSignalAndReload},
		{"FailingUnit", testFailingUnit},
		{"MissingBinary", testMissingBinary},
		{"RapidRestarts", testRapidRestarts},
		{"AutoRestart", testAutoRestart},
		{"Uninstall", testUninstall},
		{"DropInLimits", testDropInLimits},
		{"ExecStartQuoting", testExecStartQuoting},
		{"StopTimeoutKillSignal", testStopTimeout},
		{"RunAsUser", testRunAsUser},
		{"CancelledContext", testCancelledContext},
	}
	for _, im := range impls() {
		t.Run(im.name, func(t *testing.T) {
			newCtl := im.new(t)
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) { tt.fn(t, newCtl) })
			}
		})
	}
}

func start(t testing.TB, s server) time.Duration {
	t.Helper()
	if err := s.ctl.Start(testCtx(t), s.spec.Name); err != nil {
		t.Fatal(err)
	}
	d, err := WaitReady(testCtx(t), s.probe())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func restart(t testing.TB, s server) time.Duration {
	t.Helper()
	t0 := time.Now()
	if err := s.ctl.Restart(testCtx(t), s.spec.Name); err != nil {
		t.Fatal(err)
	}
	if _, err := WaitReady(testCtx(t), s.probe()); err != nil {
		t.Fatal(err)
	}
	return time.Since(t0)
}

func testStartRestartStop(t *testing.T, newCtl func(t testing.TB) Controller) {
	ctl := newCtl(t)
	s := installServer(t, ctl, nil)
	if p := props(t, ctl, s.spec.Name); p.ActiveState != "inactive" || p.MainPID != 0 || p.LoadState != "loaded" {
		t.Fatalf("installed, not started: got %+v", p)
	}
	start(t, s)
	p1 := props(t, ctl, s.spec.Name)
	if p1.ActiveState != "active" || p1.MainPID <= 0 {
		t.Fatalf("after start: got %+v", p1)
	}
	if got, want := get(t, s.url("/")), fmt.Sprintf("pid=%d\n", p1.MainPID); got != want {
		t.Fatalf("server answers %q, MainPID says %q", got, want)
	}
	if p1.MemoryCurrent == 0 {
		t.Errorf("MemoryCurrent is 0 for a running server")
	}
	restart(t, s)
	p2 := props(t, ctl, s.spec.Name)
	if p2.ActiveState != "active" || p2.MainPID <= 0 || p2.MainPID == p1.MainPID {
		t.Fatalf("after restart: MainPID %d -> %d, props %+v", p1.MainPID, p2.MainPID, p2)
	}
	if got, want := get(t, s.url("/")), fmt.Sprintf("pid=%d\n", p2.MainPID); got != want {
		t.Fatalf("after restart the server answers %q, MainPID says %q", got, want)
	}
	if err := ctl.Stop(testCtx(t), s.spec.Name); err != nil {
		t.Fatal(err)
	}
	p3 := props(t, ctl, s.spec.Name)
	if p3.ActiveState != "inactive" || p3.MainPID != 0 || p3.Result != "success" {
		t.Fatalf("after stop: got %+v", p3)
	}
	if err := syscall.Kill(p2.MainPID, 0); err == nil && !zombie(p2.MainPID) {
		t.Fatalf("process %d still runs after stop", p2.MainPID)
	}
	tail, err := ctl.LogTail(testCtx(t), s.spec.Name, 5)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(tail, "labserver listening on") {
		t.Fatalf("log tail lacks the server's output:\n%s", tail)
	}
}

func testSecondController(t *testing.T, newCtl func(t testing.TB) Controller) {
	a := newCtl(t)
	s := installServer(t, a, nil)
	start(t, s)
	pa := props(t, a, s.spec.Name)
	b := newCtl(t)
	pb := props(t, b, s.spec.Name)
	if pb.ActiveState != "active" || pb.MainPID != pa.MainPID {
		t.Fatalf("second controller sees %+v, first saw MainPID %d", pb, pa.MainPID)
	}
	// The second controller restarts and stops what the first started.
	s.ctl = b
	restart(t, s)
	if pr := props(t, b, s.spec.Name); pr.MainPID == pa.MainPID || pr.ActiveState != "active" {
		t.Fatalf("restart by second controller: %+v", pr)
	}
	if err := b.Stop(testCtx(t), s.spec.Name); err != nil {
		t.Fatal(err)
	}
	if p := props(t, a, s.spec.Name); p.ActiveState != "inactive" {
		t.Fatalf("first controller sees %+v after the second stopped it", p)
	}
}

func testDropInEnvironment(t *testing.T, newCtl func(t testing.TB) Controller) {
	ctl := newCtl(t)
	s := installServer(t, ctl, func(s *UnitSpec) { s.Environment = map[string]string{"BASE": "one two"} })
	start(t, s)
	if got := get(t, s.url("/env?k=BASE")); got != "one two" {
		t.Fatalf("BASE=%q, want %q", got, "one two")
	}
	// Values that quoting must keep whole (issue 13, finding 1: single
	// quotes once smuggled LD_PRELOAD into the target's environment).
	hostile := []string{"FOO=bar", "QUOTED=a b", `SMUGGLE=x' LD_PRELOAD=/tmp/evil.so 'y`, `DQ=say "hi" \ 50% $HOME ${X}`}
	if err := ctl.SetEnvironment(testCtx(t), s.spec.Name, "env", hostile); err != nil {
		t.Fatal(err)
	}
	if err := ctl.SetDropIn(testCtx(t), s.spec.Name, "env", map[string]string{"Environment": "LD_PRELOAD=/tmp/evil.so"}); err == nil {
		t.Fatal("SetDropIn accepted Environment=, a line that is parsed again")
	}
	if err := ctl.SetEnvironment(testCtx(t), s.spec.Name, "env", []string{"A=line\nB=2"}); err == nil {
		t.Fatal("SetEnvironment accepted a line break")
	}
	if err := ctl.SetEnvironment(testCtx(t), s.spec.Name, "env", []string{"A=1\u2028B=2"}); err == nil {
		t.Fatal("SetEnvironment accepted U+2028")
	}
	if err := ctl.SetEnvironment(testCtx(t), s.spec.Name, "env", hostile); err != nil {
		t.Fatal(err)
	}
	restart(t, s)
	env := environOf(t, props(t, ctl, s.spec.Name).MainPID)
	for _, want := range append(hostile, "BASE=one two") {
		if !contains(env, want) {
			t.Errorf("/proc/PID/environ lacks %q: %q", want, env)
		}
	}
	for _, e := range env {
		if strings.HasPrefix(e, "LD_PRELOAD=") {
			t.Errorf("a value smuggled %q into the environment", e)
		}
	}
	removed, err := ctl.RemoveLabDropIns(testCtx(t), s.spec.Name)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(removed, []string{"50-lab-env-env.conf"}) {
		t.Fatalf("RemoveLabDropIns removed %q, want [50-lab-env-env.conf]", removed)
	}
	restart(t, s)
	env = environOf(t, props(t, ctl, s.spec.Name).MainPID)
	if contains(env, "FOO=bar") || !contains(env, "BASE=one two") {
		t.Fatalf("after removing the drop-in: environ %q", env)
	}
	if removed, err := ctl.RemoveLabDropIns(testCtx(t), s.spec.Name); err != nil || len(removed) != 0 {
		t.Fatalf("second RemoveLabDropIns: %q, %v", removed, err)
	}
	// RemoveDropIn by the short name removes the prefixed file.
	if err := ctl.SetEnvironment(testCtx(t), s.spec.Name, "env2", []string{"X=1"}); err != nil {
		t.Fatal(err)
	}
	if err := ctl.RemoveDropIn(testCtx(t), s.spec.Name, "env2"); err != nil {
		t.Fatal(err)
	}
	restart(t, s)
	if env := environOf(t, props(t, ctl, s.spec.Name).MainPID); contains(env, "X=1") {
		t.Fatalf("RemoveDropIn left X=1: %q", env)
	}
}

func testSignalAndReload(t *testing.T, newCtl func(t testing.TB) Controller) {
	ctl := newCtl(t)
	s := installServer(t, ctl, nil)
	start(t, s)
	pid := props(t, ctl, s.spec.Name).MainPID
	if err := ctl.Signal(testCtx(t), s.spec.Name, syscall.SIGUSR2); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "one SIGUSR2 counted", func() bool { return get(t, s.url("/usr2")) == "1" })
	if err := ctl.Reload(testCtx(t), s.spec.Name); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "reload sends a second SIGUSR2", func() bool { return get(t, s.url("/usr2")) == "2" })
	if p := props(t, ctl, s.spec.Name); p.MainPID != pid || p.ActiveState != "active" {
		t.Fatalf("signal/reload must not restart: MainPID %d -> %d (%s)", pid, p.MainPID, p.ActiveState)
	}
}

func testFailingUnit(t *testing.T, newCtl func(t testing.TB) Controller) {
	ctl := newCtl(t)
	marker := fmt.Sprintf("boom-%d", time.Now().UnixNano())
	spec := UnitSpec{
		Name:      unitName(),
		ExecStart: []string{"/bin/sh", "-c", "echo " + marker + " >&2; sleep 0.05; exit 3"},
		LogFile:   filepath.Join(t.TempDir(), "fail.log"),
	}
	install(t, ctl, spec)
	err := ctl.Start(testCtx(t), spec.Name)
	if err == nil {
		_, err = WaitReady(testCtx(t), Probe{Addr: freePort(t), Timeout: 10 * time.Second, Controller: ctl, Unit: spec.Name})
	}
	var ue *UnitError
	if !errors.As(err, &ue) {
		t.Fatalf("want a *UnitError, got %v", err)
	}
	msg := err.Error()
	for _, want := range []string{spec.Name, marker, "ExecMainStatus=3"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
	if p := props(t, ctl, spec.Name); p.ActiveState != "failed" || p.Result != "exit-code" || p.ExecMainCode != 1 || p.ExecMainStatus != 3 {
		t.Errorf("failed unit props: %+v", p)
	}
	t.Logf("error message:\n%s", msg)
}

func testMissingBinary(t *testing.T, newCtl func(t testing.TB) Controller) {
	ctl := newCtl(t)
	spec := UnitSpec{Name: unitName(), ExecStart: []string{"/nonexistent/labtest-binary"}, LogFile: filepath.Join(t.TempDir(), "x.log")}
	install(t, ctl, spec)
	err := ctl.Start(testCtx(t), spec.Name)
	if err == nil {
		t.Fatal("starting a missing binary succeeded")
	}
	if !strings.Contains(err.Error(), spec.Name) || !strings.Contains(err.Error(), "status 203 means EXEC") {
		t.Fatalf("error does not name the unit and explain status 203: %v", err)
	}
	if p := props(t, ctl, spec.Name); p.ActiveState != "failed" {
		t.Fatalf("props after failed start: %+v", p)
	}
	t.Logf("error message:\n%v", err)
}

func testRapidRestarts(t *testing.T, newCtl func(t testing.TB) Controller) {
	ctl := newCtl(t)
	s := installServer(t, ctl, nil)
	start(t, s)
	var ds []time.Duration
	pids := map[int]bool{}
	for range 10 {
		ds = append(ds, restart(t, s))
		pids[props(t, ctl, s.spec.Name).MainPID] = true
	}
	p := props(t, ctl, s.spec.Name)
	if p.ActiveState != "active" || p.Result == "start-limit-hit" {
		t.Fatalf("after 10 rapid restarts: %+v", p)
	}
	if len(pids) != 10 {
		t.Fatalf("10 restarts gave %d distinct PIDs", len(pids))
	}
	slices.Sort(ds)
	t.Logf("%s: restart-to-ready over 10 restarts: min %v p50 %v max %v", ctl.Kind(), ds[0], ds[5], ds[9])
}

func testAutoRestart(t *testing.T, newCtl func(t testing.TB) Controller) {
	ctl := newCtl(t)
	s := installServer(t, ctl, func(s *UnitSpec) { s.Restart = "always" })
	start(t, s)
	p1 := props(t, ctl, s.spec.Name)
	if err := ctl.Signal(testCtx(t), s.spec.Name, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	var p2 Props
	waitFor(t, "automatic restart after SIGKILL", func() bool {
		p2 = props(t, ctl, s.spec.Name)
		return p2.NRestarts >= p1.NRestarts+1 && p2.MainPID > 0 && p2.MainPID != p1.MainPID
	})
	if _, err := WaitReady(testCtx(t), s.probe()); err != nil {
		t.Fatal(err)
	}
	if err := ctl.Stop(testCtx(t), s.spec.Name); err != nil {
		t.Fatal(err)
	}
	if p := props(t, ctl, s.spec.Name); p.ActiveState != "inactive" {
		t.Fatalf("Restart=always unit after Stop: %+v", p)
	}
}

func testUninstall(t *testing.T, newCtl func(t testing.TB) Controller) {
	ctl := newCtl(t)
	s := installServer(t, ctl, nil)
	start(t, s)
	pid := props(t, ctl, s.spec.Name).MainPID
	if err := ctl.SetEnvironment(testCtx(t), s.spec.Name, "env", []string{"A=1"}); err != nil {
		t.Fatal(err)
	}
	if err := ctl.Uninstall(testCtx(t), s.spec.Name); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, 0); err == nil && !zombie(pid) {
		t.Fatalf("process %d still runs after uninstall", pid)
	}
	p := props(t, ctl, s.spec.Name)
	if p.LoadState != "not-found" || p.ActiveState != "inactive" {
		t.Fatalf("after uninstall: %+v", p)
	}
	if err := ctl.Start(testCtx(t), s.spec.Name); err == nil {
		t.Fatal("start after uninstall succeeded")
	}
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func procStatus(t *testing.T, pid int, key string) string {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, key+":"); ok {
			return strings.TrimSpace(v)
		}
	}
	t.Fatalf("/proc/%d/status has no %s", pid, key)
	return ""
}

func maxOpenFiles(t *testing.T, pid int) string {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/limits", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "Max open files") {
			return strings.Join(strings.Fields(line)[3:5], ":")
		}
	}
	t.Fatalf("/proc/%d/limits has no Max open files", pid)
	return ""
}

func testDropInLimits(t *testing.T, newCtl func(t testing.TB) Controller) {
	ctl := newCtl(t)
	s := installServer(t, ctl, nil)
	start(t, s)
	before := props(t, ctl, s.spec.Name).MainPID
	nofile, cpus := maxOpenFiles(t, before), procStatus(t, before, "Cpus_allowed_list")
	if err := ctl.SetDropIn(testCtx(t), s.spec.Name, "limits", map[string]string{"LimitNOFILE": "4321", "CPUAffinity": "0"}); err != nil {
		t.Fatal(err)
	}
	restart(t, s)
	pid := props(t, ctl, s.spec.Name).MainPID
	if got, want := get(t, s.url("/")), fmt.Sprintf("pid=%d\n", pid); got != want {
		t.Fatalf("MainPID %d is not the server (%q): a wrapper must exec in place", pid, got)
	}
	if got := maxOpenFiles(t, pid); got != "4321:4321" {
		t.Errorf("LimitNOFILE=4321: /proc/PID/limits says %s", got)
	}
	if got := procStatus(t, pid, "Cpus_allowed_list"); got != "0" {
		t.Errorf("CPUAffinity=0: Cpus_allowed_list %s", got)
	}
	if _, err := ctl.RemoveLabDropIns(testCtx(t), s.spec.Name); err != nil {
		t.Fatal(err)
	}
	restart(t, s)
	pid = props(t, ctl, s.spec.Name).MainPID
	if got := maxOpenFiles(t, pid); got != nofile {
		t.Errorf("after removing the drop-in: open files %s, want %s", got, nofile)
	}
	if got := procStatus(t, pid, "Cpus_allowed_list"); got != cpus {
		t.Errorf("after removing the drop-in: Cpus_allowed_list %s, want %s", got, cpus)
	}
}

func testExecStartQuoting(t *testing.T, newCtl func(t testing.TB) Controller) {
	ctl := newCtl(t)
	log := filepath.Join(t.TempDir(), "args.log")
	args := []string{"a b", "$HOME", "100%", `q"uote`, `back\slash`, ";", "it's", ""}
	spec := UnitSpec{
		Name:      unitName(),
		ExecStart: append([]string{"/bin/sh", "-c", `printf '<%s>' "$@"; echo`, "sh"}, args...),
		LogFile:   log,
	}
	install(t, ctl, spec)
	if err := ctl.Start(testCtx(t), spec.Name); err != nil {
		t.Fatal(err)
	}
	want := "<a b><$HOME><100%><q\"uote><back\\slash><;><it's><>\n"
	waitFor(t, "the arguments in the log", func() bool {
		b, _ := os.ReadFile(log)
		return len(b) > 0 && strings.HasSuffix(string(b), "\n")
	})
	if b, _ := os.ReadFile(log); string(b) != want {
		t.Fatalf("arguments arrived as %q, want %q", b, want)
	}
	waitFor(t, "the unit to finish", func() bool { return props(t, ctl, spec.Name).ActiveState == "inactive" })
	if p := props(t, ctl, spec.Name); p.Result != "success" || p.ExecMainStatus != 0 {
		t.Fatalf("finished unit: %+v", p)
	}
}

func testStopTimeout(t *testing.T, newCtl func(t testing.TB) Controller) {
	ctl := newCtl(t)
	log := filepath.Join(t.TempDir(), "stop.log")
	spec := UnitSpec{
		Name:        unitName(),
		ExecStart:   []string{"/bin/sh", "-c", `trap 'echo got-INT' INT; echo started; while :; do sleep 0.05; done`},
		LogFile:     log,
		KillSignal:  "SIGINT",
		StopTimeout: 300 * time.Millisecond,
	}
	install(t, ctl, spec)
	if err := ctl.Start(testCtx(t), spec.Name); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the trap to be set", func() bool { b, _ := os.ReadFile(log); return strings.Contains(string(b), "started") })
	pid := props(t, ctl, spec.Name).MainPID
	t0 := time.Now()
	if err := ctl.Stop(testCtx(t), spec.Name); err != nil {
		t.Fatal(err)
	}
	took := time.Since(t0)
	if took < 300*time.Millisecond || took > 3*time.Second {
		t.Errorf("stop of a unit ignoring KillSignal took %v, want StopTimeout 300ms then SIGKILL", took)
	}
	if err := syscall.Kill(pid, 0); err == nil && !zombie(pid) {
		t.Fatalf("process %d survives stop", pid)
	}
	if b, _ := os.ReadFile(log); !strings.Contains(string(b), "got-INT") {
		t.Errorf("KillSignal=SIGINT not delivered; log: %q", b)
	}
	p := props(t, ctl, spec.Name)
	t.Logf("after stop by SIGKILL: %+v (took %v)", p, took)
	if p.ActiveState != "failed" || p.Result != "timeout" || p.MainPID != 0 || p.ExecMainCode != 2 || p.ExecMainStatus != 9 {
		t.Fatalf("after a stop that needed SIGKILL: %+v, want failed/timeout, killed by signal 9", p)
	}
}

func testRunAsUser(t *testing.T, newCtl func(t testing.TB) Controller) {
	if os.Geteuid() != 0 {
		labtest.Need(t, "running a unit as another user needs root")
	}
	ctl := newCtl(t)
	s := installServer(t, ctl, func(s *UnitSpec) { s.User = "nobody" })
	start(t, s)
	pid := props(t, ctl, s.spec.Name).MainPID
	if uid := strings.Fields(procStatus(t, pid, "Uid"))[0]; uid != "65534" {
		t.Fatalf("User=nobody: process runs as uid %s", uid)
	}
}

func testCancelledContext(t *testing.T, newCtl func(t testing.TB) Controller) {
	ctl := newCtl(t)
	s := installServer(t, ctl, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for op, fn := range map[string]func(context.Context, string) error{"start": ctl.Start, "restart": ctl.Restart, "stop": ctl.Stop} {
		err := fn(ctx, s.spec.Name)
		if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), s.spec.Name) {
			t.Errorf("%s with a cancelled context: %v", op, err)
		}
	}
	if p := props(t, ctl, s.spec.Name); p.ActiveState != "inactive" {
		t.Fatalf("a cancelled start started the unit: %+v", p)
	}
}
