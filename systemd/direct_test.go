package systemd

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// directHelper, run by TestMain when LAB_DIRECT_DIR is set, starts a unit
// from another process and exits: TestDirectOutlivesStarter runs the test
// binary this way.
func directHelper(dir, name string) {
	d, err := NewDirect(dir)
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

// A service started by one lab process (`lab stack up`) keeps running after
// it exits; a later one (`lab stack status`, `lab stack down`) finds it in
// the state dir and controls it.
func TestDirectOutlivesStarter(t *testing.T) {
	dir := t.TempDir()
	d, err := NewDirect(dir)
	if err != nil {
		t.Fatal(err)
	}
	s := installServer(t, d, nil)
	startFromAnotherProcess(t, dir, s.spec.Name)
	if _, err := WaitReady(testCtx(t), s.probe()); err != nil {
		t.Fatal(err)
	}
	p := props(t, d, s.spec.Name)
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
	restart(t, s)
	if q := props(t, d, s.spec.Name); q.MainPID == p.MainPID || q.ActiveState != "active" {
		t.Fatalf("restart of a service another process started: %+v", q)
	}
	if err := d.Stop(testCtx(t), s.spec.Name); err != nil {
		t.Fatal(err)
	}
	if q := props(t, d, s.spec.Name); q.ActiveState != "inactive" {
		t.Fatalf("after stop: %+v", q)
	}
}

// A service that died while no lab process watched shows as failed.
func TestDirectDiedUnobserved(t *testing.T) {
	dir := t.TempDir()
	d, err := NewDirect(dir)
	if err != nil {
		t.Fatal(err)
	}
	s := installServer(t, d, nil)
	startFromAnotherProcess(t, dir, s.spec.Name)
	if _, err := WaitReady(testCtx(t), s.probe()); err != nil {
		t.Fatal(err)
	}
	pid := props(t, d, s.spec.Name).MainPID
	if err := exec.Command("kill", "-9", fmt.Sprint(pid)).Run(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the service to show as failed", func() bool {
		p := props(t, d, s.spec.Name)
		return p.ActiveState == "failed" && p.Result == "unknown" && p.MainPID == 0
	})
	// Starting it again works.
	start(t, s)
}

func TestDirectRefusesSystemdOnlySettings(t *testing.T) {
	d, err := NewDirect(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	spec := UnitSpec{Name: unitName(), ExecStart: []string{"/bin/true"}, Extra: map[string]string{"MemoryMax": "1G"}}
	if err := d.Install(testCtx(t), spec); err == nil || !strings.Contains(err.Error(), "MemoryMax= needs systemd") {
		t.Fatalf("Install with MemoryMax: %v", err)
	}
	spec.Extra = nil
	install(t, d, spec)
	err = d.SetDropIn(testCtx(t), spec.Name, "mem", map[string]string{"MemoryMax": "1G"})
	if err == nil || !strings.Contains(err.Error(), "drop-in 50-lab-mem.conf MemoryMax= needs systemd") {
		t.Fatalf("SetDropIn with MemoryMax: %v", err)
	}
	if err := d.Start(testCtx(t), "labtest-not-installed.service"); err == nil || !strings.Contains(err.Error(), "not installed") {
		t.Fatalf("start of an unknown unit: %v", err)
	}
}
