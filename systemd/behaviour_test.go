package systemd_test

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

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/systemd"
	"github.com/pgrst-lab/pgrst-lab/systemd/internal/servicetest"
	"github.com/pgrst-lab/pgrst-lab/systemd/supervisor/direct"
)

// impl makes a controller for the behaviour suite. Calling it twice in one
// test gives two controllers of the same manager (or state dir), as two lab
// processes would have.
type impl struct {
	name string
	new  func(t testing.TB) func(t testing.TB) systemd.Controller
}

func impls() []impl {
	return []impl{
		{"dbus", func(t testing.TB) func(t testing.TB) systemd.Controller {
			labtest.RequireSystemd(t)
			return func(t testing.TB) systemd.Controller {
				ctl, err := systemd.NewDBus(servicetest.Ctx(t), systemd.DBusOptions{})
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { ctl.Close() })
				return ctl
			}
		}},
		{"direct", func(t testing.TB) func(t testing.TB) systemd.Controller {
			dir := t.TempDir()
			return func(t testing.TB) systemd.Controller {
				ctl, err := direct.New(dir)
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
		fn   func(t *testing.T, newCtl func(t testing.TB) systemd.Controller)
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

func testStartRestartStop(t *testing.T, newCtl func(t testing.TB) systemd.Controller) {
	ctl := newCtl(t)
	s := servicetest.InstallServer(t, ctl, nil)
	if p := servicetest.Props(t, ctl, s.Spec.Name); p.ActiveState != "inactive" || p.MainPID != 0 || p.LoadState != "loaded" {
		t.Fatalf("installed, not started: got %+v", p)
	}
	servicetest.Start(t, s)
	p1 := servicetest.Props(t, ctl, s.Spec.Name)
	if p1.ActiveState != "active" || p1.MainPID <= 0 {
		t.Fatalf("after start: got %+v", p1)
	}
	if got, want := servicetest.Get(t, s.URL("/")), fmt.Sprintf("pid=%d\n", p1.MainPID); got != want {
		t.Fatalf("server answers %q, MainPID says %q", got, want)
	}
	if p1.MemoryCurrent == 0 {
		t.Errorf("MemoryCurrent is 0 for a running servicetest.Server")
	}
	servicetest.Restart(t, s)
	p2 := servicetest.Props(t, ctl, s.Spec.Name)
	if p2.ActiveState != "active" || p2.MainPID <= 0 || p2.MainPID == p1.MainPID {
		t.Fatalf("after restart: MainPID %d -> %d, props %+v", p1.MainPID, p2.MainPID, p2)
	}
	if got, want := servicetest.Get(t, s.URL("/")), fmt.Sprintf("pid=%d\n", p2.MainPID); got != want {
		t.Fatalf("after restart the servicetest.Server answers %q, MainPID says %q", got, want)
	}
	if err := ctl.Stop(servicetest.Ctx(t), s.Spec.Name); err != nil {
		t.Fatal(err)
	}
	p3 := servicetest.Props(t, ctl, s.Spec.Name)
	if p3.ActiveState != "inactive" || p3.MainPID != 0 || p3.Result != "success" {
		t.Fatalf("after stop: got %+v", p3)
	}
	if servicetest.Running(p2.MainPID) {
		t.Fatalf("process %d still runs after stop", p2.MainPID)
	}
	tail, err := ctl.LogTail(servicetest.Ctx(t), s.Spec.Name, 5)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(tail, "labserver listening on") {
		t.Fatalf("log tail lacks the servicetest.Server's output:\n%s", tail)
	}
}

func testSecondController(t *testing.T, newCtl func(t testing.TB) systemd.Controller) {
	a := newCtl(t)
	s := servicetest.InstallServer(t, a, nil)
	servicetest.Start(t, s)
	pa := servicetest.Props(t, a, s.Spec.Name)
	b := newCtl(t)
	pb := servicetest.Props(t, b, s.Spec.Name)
	if pb.ActiveState != "active" || pb.MainPID != pa.MainPID {
		t.Fatalf("second controller sees %+v, first saw MainPID %d", pb, pa.MainPID)
	}
	// The second controller restarts and stops what the first started.
	s.Ctl = b
	servicetest.Restart(t, s)
	if pr := servicetest.Props(t, b, s.Spec.Name); pr.MainPID == pa.MainPID || pr.ActiveState != "active" {
		t.Fatalf("restart by second controller: %+v", pr)
	}
	if err := b.Stop(servicetest.Ctx(t), s.Spec.Name); err != nil {
		t.Fatal(err)
	}
	if p := servicetest.Props(t, a, s.Spec.Name); p.ActiveState != "inactive" {
		t.Fatalf("first controller sees %+v after the second stopped it", p)
	}
}

func testDropInEnvironment(t *testing.T, newCtl func(t testing.TB) systemd.Controller) {
	ctl := newCtl(t)
	s := servicetest.InstallServer(t, ctl, func(s *systemd.UnitSpec) { s.Environment = map[string]string{"BASE": "one two"} })
	servicetest.Start(t, s)
	if got := servicetest.Get(t, s.URL("/env?k=BASE")); got != "one two" {
		t.Fatalf("BASE=%q, want %q", got, "one two")
	}
	// Values that quoting must keep whole (issue 13, finding 1: single
	// quotes once smuggled LD_PRELOAD into the target's environment).
	hostile := []string{"FOO=bar", "QUOTED=a b", `SMUGGLE=x' LD_PRELOAD=/tmp/evil.so 'y`, `DQ=say "hi" \ 50% $HOME ${X}`}
	if err := ctl.SetEnvironment(servicetest.Ctx(t), s.Spec.Name, "env", hostile); err != nil {
		t.Fatal(err)
	}
	if err := ctl.SetDropIn(servicetest.Ctx(t), s.Spec.Name, "env", map[string]string{"Environment": "LD_PRELOAD=/tmp/evil.so"}); err == nil {
		t.Fatal("SetDropIn accepted Environment=, a line that is parsed again")
	}
	if err := ctl.SetEnvironment(servicetest.Ctx(t), s.Spec.Name, "env", []string{"A=line\nB=2"}); err == nil {
		t.Fatal("SetEnvironment accepted a line break")
	}
	if err := ctl.SetEnvironment(servicetest.Ctx(t), s.Spec.Name, "env", []string{"A=1\u2028B=2"}); err == nil {
		t.Fatal("SetEnvironment accepted U+2028")
	}
	if err := ctl.SetEnvironment(servicetest.Ctx(t), s.Spec.Name, "env", hostile); err != nil {
		t.Fatal(err)
	}
	servicetest.Restart(t, s)
	env := servicetest.EnvironOf(t, servicetest.Props(t, ctl, s.Spec.Name).MainPID)
	for _, want := range append(hostile, "BASE=one two") {
		if !slices.Contains(env, want) {
			t.Errorf("/proc/PID/environ lacks %q: %q", want, env)
		}
	}
	for _, e := range env {
		if strings.HasPrefix(e, "LD_PRELOAD=") {
			t.Errorf("a value smuggled %q into the environment", e)
		}
	}
	removed, err := ctl.RemoveLabDropIns(servicetest.Ctx(t), s.Spec.Name)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(removed, []string{"50-lab-env-env.conf"}) {
		t.Fatalf("RemoveLabDropIns removed %q, want [50-lab-env-env.conf]", removed)
	}
	servicetest.Restart(t, s)
	env = servicetest.EnvironOf(t, servicetest.Props(t, ctl, s.Spec.Name).MainPID)
	if slices.Contains(env, "FOO=bar") || !slices.Contains(env, "BASE=one two") {
		t.Fatalf("after removing the drop-in: environ %q", env)
	}
	if removed, err := ctl.RemoveLabDropIns(servicetest.Ctx(t), s.Spec.Name); err != nil || len(removed) != 0 {
		t.Fatalf("second RemoveLabDropIns: %q, %v", removed, err)
	}
	// RemoveDropIn by the short name removes the prefixed file.
	if err := ctl.SetEnvironment(servicetest.Ctx(t), s.Spec.Name, "env2", []string{"X=1"}); err != nil {
		t.Fatal(err)
	}
	if err := ctl.RemoveDropIn(servicetest.Ctx(t), s.Spec.Name, "env2"); err != nil {
		t.Fatal(err)
	}
	servicetest.Restart(t, s)
	if env := servicetest.EnvironOf(t, servicetest.Props(t, ctl, s.Spec.Name).MainPID); slices.Contains(env, "X=1") {
		t.Fatalf("RemoveDropIn left X=1: %q", env)
	}
}

func testSignalAndReload(t *testing.T, newCtl func(t testing.TB) systemd.Controller) {
	ctl := newCtl(t)
	s := servicetest.InstallServer(t, ctl, nil)
	servicetest.Start(t, s)
	pid := servicetest.Props(t, ctl, s.Spec.Name).MainPID
	if err := ctl.Signal(servicetest.Ctx(t), s.Spec.Name, syscall.SIGUSR2); err != nil {
		t.Fatal(err)
	}
	labtest.WaitFor(t, "one SIGUSR2 counted", func() bool { return servicetest.Get(t, s.URL("/usr2")) == "1" })
	if err := ctl.Reload(servicetest.Ctx(t), s.Spec.Name); err != nil {
		t.Fatal(err)
	}
	labtest.WaitFor(t, "reload sends a second SIGUSR2", func() bool { return servicetest.Get(t, s.URL("/usr2")) == "2" })
	if p := servicetest.Props(t, ctl, s.Spec.Name); p.MainPID != pid || p.ActiveState != "active" {
		t.Fatalf("signal/reload must not restart: MainPID %d -> %d (%s)", pid, p.MainPID, p.ActiveState)
	}
}

func testFailingUnit(t *testing.T, newCtl func(t testing.TB) systemd.Controller) {
	ctl := newCtl(t)
	marker := fmt.Sprintf("boom-%d", time.Now().UnixNano())
	spec := systemd.UnitSpec{
		Name:      servicetest.UnitName(),
		ExecStart: []string{"/bin/sh", "-c", "echo " + marker + " >&2; sleep 0.05; exit 3"},
		LogFile:   filepath.Join(t.TempDir(), "fail.log"),
	}
	servicetest.Install(t, ctl, spec)
	err := ctl.Start(servicetest.Ctx(t), spec.Name)
	if err == nil {
		_, err = systemd.WaitReady(servicetest.Ctx(t), systemd.Probe{Addr: servicetest.FreePort(t), Timeout: 10 * time.Second, Controller: ctl, Unit: spec.Name})
	}
	var ue *systemd.UnitError
	if !errors.As(err, &ue) {
		t.Fatalf("want a *systemd.UnitError, got %v", err)
	}
	msg := err.Error()
	for _, want := range []string{spec.Name, marker, "ExecMainStatus=3"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
	if p := servicetest.Props(t, ctl, spec.Name); p.ActiveState != "failed" || p.Result != "exit-code" || p.ExecMainCode != 1 || p.ExecMainStatus != 3 {
		t.Errorf("failed unit props: %+v", p)
	}
	t.Logf("error message:\n%s", msg)
}

func testMissingBinary(t *testing.T, newCtl func(t testing.TB) systemd.Controller) {
	ctl := newCtl(t)
	spec := systemd.UnitSpec{Name: servicetest.UnitName(), ExecStart: []string{"/nonexistent/labtest-binary"}, LogFile: filepath.Join(t.TempDir(), "x.log")}
	servicetest.Install(t, ctl, spec)
	err := ctl.Start(servicetest.Ctx(t), spec.Name)
	if err == nil {
		t.Fatal("starting a missing binary succeeded")
	}
	if !strings.Contains(err.Error(), spec.Name) || !strings.Contains(err.Error(), "status 203 means EXEC") {
		t.Fatalf("error does not name the unit and explain status 203: %v", err)
	}
	if p := servicetest.Props(t, ctl, spec.Name); p.ActiveState != "failed" {
		t.Fatalf("props after failed start: %+v", p)
	}
	t.Logf("error message:\n%v", err)
}

func testRapidRestarts(t *testing.T, newCtl func(t testing.TB) systemd.Controller) {
	ctl := newCtl(t)
	s := servicetest.InstallServer(t, ctl, nil)
	servicetest.Start(t, s)
	var ds []time.Duration
	pids := map[int]bool{}
	for range 10 {
		ds = append(ds, servicetest.Restart(t, s))
		pids[servicetest.Props(t, ctl, s.Spec.Name).MainPID] = true
	}
	p := servicetest.Props(t, ctl, s.Spec.Name)
	if p.ActiveState != "active" || p.Result == "start-limit-hit" {
		t.Fatalf("after 10 rapid restarts: %+v", p)
	}
	if len(pids) != 10 {
		t.Fatalf("10 restarts gave %d distinct PIDs", len(pids))
	}
	slices.Sort(ds)
	t.Logf("%s: restart-to-ready over 10 restarts: min %v p50 %v max %v", ctl.Kind(), ds[0], ds[5], ds[9])
}

func testAutoRestart(t *testing.T, newCtl func(t testing.TB) systemd.Controller) {
	ctl := newCtl(t)
	s := servicetest.InstallServer(t, ctl, func(s *systemd.UnitSpec) { s.Restart = "always" })
	servicetest.Start(t, s)
	p1 := servicetest.Props(t, ctl, s.Spec.Name)
	if err := ctl.Signal(servicetest.Ctx(t), s.Spec.Name, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	var p2 systemd.Props
	labtest.WaitFor(t, "automatic restart after SIGKILL", func() bool {
		p2 = servicetest.Props(t, ctl, s.Spec.Name)
		return p2.NRestarts >= p1.NRestarts+1 && p2.MainPID > 0 && p2.MainPID != p1.MainPID
	})
	if _, err := systemd.WaitReady(servicetest.Ctx(t), s.Probe()); err != nil {
		t.Fatal(err)
	}
	if err := ctl.Stop(servicetest.Ctx(t), s.Spec.Name); err != nil {
		t.Fatal(err)
	}
	if p := servicetest.Props(t, ctl, s.Spec.Name); p.ActiveState != "inactive" {
		t.Fatalf("Restart=always unit after Stop: %+v", p)
	}
}

func testUninstall(t *testing.T, newCtl func(t testing.TB) systemd.Controller) {
	ctl := newCtl(t)
	s := servicetest.InstallServer(t, ctl, nil)
	servicetest.Start(t, s)
	pid := servicetest.Props(t, ctl, s.Spec.Name).MainPID
	if err := ctl.SetEnvironment(servicetest.Ctx(t), s.Spec.Name, "env", []string{"A=1"}); err != nil {
		t.Fatal(err)
	}
	if err := ctl.Uninstall(servicetest.Ctx(t), s.Spec.Name); err != nil {
		t.Fatal(err)
	}
	if servicetest.Running(pid) {
		t.Fatalf("process %d still runs after uninstall", pid)
	}
	p := servicetest.Props(t, ctl, s.Spec.Name)
	if p.LoadState != "not-found" || p.ActiveState != "inactive" {
		t.Fatalf("after uninstall: %+v", p)
	}
	if err := ctl.Start(servicetest.Ctx(t), s.Spec.Name); err == nil {
		t.Fatal("start after uninstall succeeded")
	}
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

func testDropInLimits(t *testing.T, newCtl func(t testing.TB) systemd.Controller) {
	ctl := newCtl(t)
	s := servicetest.InstallServer(t, ctl, nil)
	servicetest.Start(t, s)
	before := servicetest.Props(t, ctl, s.Spec.Name).MainPID
	nofile, cpus := maxOpenFiles(t, before), labtest.ProcStatus(t, before, "Cpus_allowed_list")
	if err := ctl.SetDropIn(servicetest.Ctx(t), s.Spec.Name, "limits", map[string]string{"LimitNOFILE": "4321", "CPUAffinity": "0"}); err != nil {
		t.Fatal(err)
	}
	servicetest.Restart(t, s)
	pid := servicetest.Props(t, ctl, s.Spec.Name).MainPID
	if got, want := servicetest.Get(t, s.URL("/")), fmt.Sprintf("pid=%d\n", pid); got != want {
		t.Fatalf("MainPID %d is not the servicetest.Server (%q): a wrapper must exec in place", pid, got)
	}
	if got := maxOpenFiles(t, pid); got != "4321:4321" {
		t.Errorf("LimitNOFILE=4321: /proc/PID/limits says %s", got)
	}
	if got := labtest.ProcStatus(t, pid, "Cpus_allowed_list"); got != "0" {
		t.Errorf("CPUAffinity=0: Cpus_allowed_list %s", got)
	}
	if _, err := ctl.RemoveLabDropIns(servicetest.Ctx(t), s.Spec.Name); err != nil {
		t.Fatal(err)
	}
	servicetest.Restart(t, s)
	pid = servicetest.Props(t, ctl, s.Spec.Name).MainPID
	if got := maxOpenFiles(t, pid); got != nofile {
		t.Errorf("after removing the drop-in: open files %s, want %s", got, nofile)
	}
	if got := labtest.ProcStatus(t, pid, "Cpus_allowed_list"); got != cpus {
		t.Errorf("after removing the drop-in: Cpus_allowed_list %s, want %s", got, cpus)
	}
}

func testExecStartQuoting(t *testing.T, newCtl func(t testing.TB) systemd.Controller) {
	ctl := newCtl(t)
	log := filepath.Join(t.TempDir(), "args.log")
	args := []string{"a b", "$HOME", "100%", `q"uote`, `back\slash`, ";", "it's", ""}
	spec := systemd.UnitSpec{
		Name:      servicetest.UnitName(),
		ExecStart: append([]string{"/bin/sh", "-c", `printf '<%s>' "$@"; echo`, "sh"}, args...),
		LogFile:   log,
	}
	servicetest.Install(t, ctl, spec)
	if err := ctl.Start(servicetest.Ctx(t), spec.Name); err != nil {
		t.Fatal(err)
	}
	want := "<a b><$HOME><100%><q\"uote><back\\slash><;><it's><>\n"
	labtest.WaitFor(t, "the arguments in the log", func() bool {
		b, _ := os.ReadFile(log)
		return len(b) > 0 && strings.HasSuffix(string(b), "\n")
	})
	if b, _ := os.ReadFile(log); string(b) != want {
		t.Fatalf("arguments arrived as %q, want %q", b, want)
	}
	labtest.WaitFor(t, "the unit to finish", func() bool { return servicetest.Props(t, ctl, spec.Name).ActiveState == "inactive" })
	if p := servicetest.Props(t, ctl, spec.Name); p.Result != "success" || p.ExecMainStatus != 0 {
		t.Fatalf("finished unit: %+v", p)
	}
}

func testStopTimeout(t *testing.T, newCtl func(t testing.TB) systemd.Controller) {
	ctl := newCtl(t)
	log := filepath.Join(t.TempDir(), "stop.log")
	spec := systemd.UnitSpec{
		Name:        servicetest.UnitName(),
		ExecStart:   []string{"/bin/sh", "-c", `trap 'echo got-INT' INT; echo started; while :; do sleep 0.05; done`},
		LogFile:     log,
		KillSignal:  "SIGINT",
		StopTimeout: 300 * time.Millisecond,
	}
	servicetest.Install(t, ctl, spec)
	if err := ctl.Start(servicetest.Ctx(t), spec.Name); err != nil {
		t.Fatal(err)
	}
	labtest.WaitFor(t, "the trap to be set", func() bool { b, _ := os.ReadFile(log); return strings.Contains(string(b), "started") })
	pid := servicetest.Props(t, ctl, spec.Name).MainPID
	t0 := time.Now()
	if err := ctl.Stop(servicetest.Ctx(t), spec.Name); err != nil {
		t.Fatal(err)
	}
	took := time.Since(t0)
	if took < 300*time.Millisecond || took > 3*time.Second {
		t.Errorf("stop of a unit ignoring KillSignal took %v, want StopTimeout 300ms then SIGKILL", took)
	}
	if servicetest.Running(pid) {
		t.Fatalf("process %d survives stop", pid)
	}
	if b, _ := os.ReadFile(log); !strings.Contains(string(b), "got-INT") {
		t.Errorf("KillSignal=SIGINT not delivered; log: %q", b)
	}
	p := servicetest.Props(t, ctl, spec.Name)
	t.Logf("after stop by SIGKILL: %+v (took %v)", p, took)
	if p.ActiveState != "failed" || p.Result != "timeout" || p.MainPID != 0 || p.ExecMainCode != 2 || p.ExecMainStatus != 9 {
		t.Fatalf("after a stop that needed SIGKILL: %+v, want failed/timeout, killed by signal 9", p)
	}
}

func testRunAsUser(t *testing.T, newCtl func(t testing.TB) systemd.Controller) {
	if os.Geteuid() != 0 {
		labtest.Need(t, "running a unit as another user needs root")
	}
	ctl := newCtl(t)
	s := servicetest.InstallServer(t, ctl, func(s *systemd.UnitSpec) { s.User = "nobody" })
	servicetest.Start(t, s)
	pid := servicetest.Props(t, ctl, s.Spec.Name).MainPID
	if uid := strings.Fields(labtest.ProcStatus(t, pid, "Uid"))[0]; uid != "65534" {
		t.Fatalf("User=nobody: process runs as uid %s", uid)
	}
}

func testCancelledContext(t *testing.T, newCtl func(t testing.TB) systemd.Controller) {
	ctl := newCtl(t)
	s := servicetest.InstallServer(t, ctl, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for op, fn := range map[string]func(context.Context, string) error{"start": ctl.Start, "restart": ctl.Restart, "stop": ctl.Stop} {
		err := fn(ctx, s.Spec.Name)
		if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), s.Spec.Name) {
			t.Errorf("%s with a cancelled context: %v", op, err)
		}
	}
	if p := servicetest.Props(t, ctl, s.Spec.Name); p.ActiveState != "inactive" {
		t.Fatalf("a cancelled start started the unit: %+v", p)
	}
}
