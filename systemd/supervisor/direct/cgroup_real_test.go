package direct

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/systemd"
	"github.com/pgrst-lab/pgrst-lab/systemd/internal/servicetest"
)

// loadHelper, run by TestMain when LAB_DIRECT_LOAD is set, is the test
// binary as a service: "hog" touches 512 MiB page by page and exits 0 if
// it survives; "spin" keeps one CPU busy.
func loadHelper(what string) {
	switch what {
	case "hog":
		var keep [][]byte
		for range 512 {
			b := make([]byte, 1<<20)
			for i := 0; i < len(b); i += 4096 {
				b[i] = 1
			}
			keep = append(keep, b)
		}
		os.Exit(len(keep) & 0) // survived
	case "spin":
		for n := 0; ; n++ {
			_ = n
		}
	}
	os.Exit(2)
}

// cgroupHost skips (fails under CI=true) unless this process can make
// cgroups for the memory and cpu controllers.
func cgroupHost(t *testing.T) layout {
	t.Helper()
	l, err := hostLayout()
	if err == nil {
		_, err = limitWrites(l, map[string]string{"CPUQuota": "50%", "MemoryMax": "64M"}, hostMemTotal)
	}
	if err == nil {
		err = checkCgroupAccess(l, []string{"cpu", "memory"})
	}
	if err != nil {
		labtest.Need(t, "cgroups this process may create: %v", err)
	}
	return l
}

func loadUnit(t *testing.T, what string, extra map[string]string) (*Supervisor, systemd.UnitSpec) {
	t.Helper()
	d, err := New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	spec := systemd.UnitSpec{Name: servicetest.UnitName(), ExecStart: []string{os.Args[0]},
		Environment: map[string]string{"LAB_DIRECT_LOAD": what, "GOMAXPROCS": "1"}, Extra: extra}
	if err := d.Install(servicetest.Ctx(t), spec); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Uninstall(servicetest.Ctx(t), spec.Name) })
	return d, spec
}

// gone asserts that the unit's cgroup is removed from every hierarchy.
func gone(t *testing.T, l layout, d *Supervisor, unit string) {
	t.Helper()
	rel := cgroupRel(d.dir, unit)
	for _, ctl := range []string{"cpu", "cpuacct", "cpuset", "memory"} {
		if m, _ := l.hierarchy(ctl); m != "" {
			if _, err := os.Stat(filepath.Join(m, rel)); err == nil {
				t.Errorf("cgroup %s left behind in %s", rel, m)
			}
		}
	}
}

// MemoryMax= under the direct supervisor: a process that allocates past
// it is killed by the kernel's OOM killer inside the unit's own cgroup,
// the unit fails with Result=oom-kill, as under systemd, and the cgroup
// is removed.
func TestDirectMemoryMaxOOMKill(t *testing.T) {
	l := cgroupHost(t)
	d, spec := loadUnit(t, "hog", map[string]string{"MemoryMax": "64M"})
	if err := d.Start(servicetest.Ctx(t), spec.Name); err != nil {
		t.Fatal(err)
	}
	var p systemd.Props
	labtest.WaitFor(t, "the hog to end", func() bool {
		p = servicetest.Props(t, d, spec.Name)
		return p.ActiveState == "failed" || p.ActiveState == "inactive"
	})
	if p.Result != "oom-kill" || p.ExecMainStatus != 9 {
		t.Fatalf("the hog past MemoryMax=64M ended with %+v, want Result=oom-kill by SIGKILL", p)
	}
	gone(t, l, d, spec.Name)
}

// CPUQuota=50% under the direct supervisor: a busy loop gets about half a
// CPU (its cgroup's cpuacct/cpu.stat usage over a short window), and the
// cgroup goes with the unit.
func TestDirectCPUQuota(t *testing.T) {
	l := cgroupHost(t)
	d, spec := loadUnit(t, "spin", map[string]string{"CPUQuota": "50%"})
	if err := d.Start(servicetest.Ctx(t), spec.Name); err != nil {
		t.Fatal(err)
	}
	p := servicetest.Props(t, d, spec.Name)
	if p.ControlGroup != cgroupRel(d.dir, spec.Name) || p.MainPID <= 0 {
		t.Fatalf("props %+v: want ControlGroup %s", p, cgroupRel(d.dir, spec.Name))
	}
	if m, _ := l.hierarchy("memory"); m != "" {
		procs := read(t, filepath.Join(m, p.ControlGroup, "cgroup.procs"))
		if procs != strconv.Itoa(p.MainPID) {
			t.Errorf("memory cgroup has %q, want the main PID %d", procs, p.MainPID)
		}
	}
	usage := cpuUsage(t, l, p.ControlGroup)
	u0, t0 := usage(), time.Now()
	<-time.After(1500 * time.Millisecond) // the measured window, not a wait for state
	ratio := float64(usage()-u0) / float64(time.Since(t0))
	t.Logf("CPU use %.2f of one core", ratio)
	if ratio > 0.7 || ratio < 0.05 {
		t.Errorf("a busy loop under CPUQuota=50%% used %.2f of a core, want about 0.5", ratio)
	}
	if err := d.Stop(servicetest.Ctx(t), spec.Name); err != nil {
		t.Fatal(err)
	}
	gone(t, l, d, spec.Name)
}

// cpuUsage reads a cgroup's CPU time in ns: v1 cpuacct.usage, v2
// cpu.stat usage_usec.
func cpuUsage(t *testing.T, l layout, rel string) func() int64 {
	return func() int64 {
		if m := l.v1["cpuacct"]; m != "" {
			n, _ := strconv.ParseInt(read(t, filepath.Join(m, rel, "cpuacct.usage")), 10, 64)
			return n
		}
		for _, line := range strings.Split(read(t, filepath.Join(l.unified, rel, "cpu.stat")), "\n") {
			if v, ok := strings.CutPrefix(line, "usage_usec "); ok {
				n, _ := strconv.ParseInt(v, 10, 64)
				return n * 1000
			}
		}
		t.Fatal("no CPU usage counter")
		return 0
	}
}
