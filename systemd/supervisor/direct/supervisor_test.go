package direct

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/systemd"
	"github.com/pgrst-lab/pgrst-lab/systemd/internal/servicetest"
)

func TestMain(m *testing.M) {
	if dir := os.Getenv("LAB_DIRECT_DIR"); dir != "" {
		directHelper(dir, os.Getenv("LAB_DIRECT_UNIT"))
	}
	if h := os.Getenv("LAB_DIRECT_LOAD"); h != "" {
		loadHelper(h)
	}
	os.Exit(servicetest.Run(m))
}

// directHelper, run by TestMain when LAB_DIRECT_DIR is set, starts a unit
// from another process and exits: TestDirectOutlivesStarter runs the test
// binary this way.
func directHelper(dir, name string) {
	d, err := New(dir)
	if err == nil {
		err = d.Start(context.Background(), name)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

func startFromAnotherProcess(t *testing.T, dir, name string) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "LAB_DIRECT_DIR="+dir, "LAB_DIRECT_UNIT="+name)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("helper process: %v\n%s", err, out)
	}
}

// startedElsewhere installs a labserver unit under a new Supervisor and
// starts it from another process, which exits, as `lab stack up` does.
func startedElsewhere(t *testing.T) (*Supervisor, servicetest.Server) {
	t.Helper()
	dir := t.TempDir()
	d, err := New(dir)
	if err != nil {
		t.Fatal(err)
	}
	s := servicetest.InstallServer(t, d, nil)
	startFromAnotherProcess(t, dir, s.Spec.Name)
	if _, err := systemd.WaitReady(servicetest.Ctx(t), s.Probe()); err != nil {
		t.Fatal(err)
	}
	return d, s
}

// A service started by one lab process (`lab stack up`) keeps running after
// it exits; a later one (`lab stack status`, `lab stack down`) finds it in
// the state dir and controls it.
func TestDirectOutlivesStarter(t *testing.T) {
	d, s := startedElsewhere(t)
	p := servicetest.Props(t, d, s.Spec.Name)
	if p.ActiveState != "active" || p.MainPID <= 0 {
		t.Fatalf("after the starter exited: %+v", p)
	}
	// Its own session: not killed with the starter's terminal or group.
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.MainPID))
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+2:]))
	if sid := f[3]; sid != fmt.Sprint(p.MainPID) {
		t.Errorf("session id %s, want the service's own PID %d (setsid)", sid, p.MainPID)
	}
	servicetest.Restart(t, s)
	if q := servicetest.Props(t, d, s.Spec.Name); q.MainPID == p.MainPID || q.ActiveState != "active" {
		t.Fatalf("restart of a service another process started: %+v", q)
	}
	if err := d.Stop(servicetest.Ctx(t), s.Spec.Name); err != nil {
		t.Fatal(err)
	}
	if q := servicetest.Props(t, d, s.Spec.Name); q.ActiveState != "inactive" {
		t.Fatalf("after stop: %+v", q)
	}
}

// A service that died while no lab process watched shows as failed.
func TestDirectDiedUnobserved(t *testing.T) {
	d, s := startedElsewhere(t)
	pid := servicetest.Props(t, d, s.Spec.Name).MainPID
	if err := exec.Command("kill", "-9", fmt.Sprint(pid)).Run(); err != nil {
		t.Fatal(err)
	}
	labtest.WaitFor(t, "the service to show as failed", func() bool {
		p := servicetest.Props(t, d, s.Spec.Name)
		return p.ActiveState == "failed" && p.Result == "unknown" && p.MainPID == 0
	})
	// Starting it again works.
	servicetest.Start(t, s)
}

func TestDirectRefusesSystemdOnlySettings(t *testing.T) {
	d, err := New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	spec := systemd.UnitSpec{Name: servicetest.UnitName(), ExecStart: []string{"/bin/true"}, Extra: map[string]string{"TasksMax": "10"}}
	if err := d.Install(servicetest.Ctx(t), spec); err == nil || !strings.Contains(err.Error(), "TasksMax= needs systemd") {
		t.Fatalf("Install with TasksMax: %v", err)
	}
	spec.Extra = nil
	servicetest.Install(t, d, spec)
	err = d.SetDropIn(servicetest.Ctx(t), spec.Name, "mem", map[string]string{"TasksMax": "10"})
	if err == nil || !strings.Contains(err.Error(), "drop-in 50-lab-mem.conf TasksMax= needs systemd") {
		t.Fatalf("SetDropIn with TasksMax: %v", err)
	}
	if err := d.Start(servicetest.Ctx(t), "labtest-not-installed.service"); err == nil || !strings.Contains(err.Error(), "not installed") {
		t.Fatalf("start of an unknown unit: %v", err)
	}
}

func TestCheckDirectSettings(t *testing.T) {
	err := checkDirectSettings("x.service", "drop-in 50-lab-mem.conf", map[string]string{"CPUWeight": "10"})
	if err == nil || !strings.Contains(err.Error(), "CPUWeight= needs systemd") ||
		!strings.Contains(err.Error(), "AllowedCPUs, CPUAffinity, CPUQuota, LimitNOFILE, MemoryHigh, MemoryMax") {
		t.Fatalf("got %v", err)
	}
}
