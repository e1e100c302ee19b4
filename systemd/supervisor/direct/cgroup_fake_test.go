package direct

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// On a pure cgroup v2 host (this test's fake tree: plain directories),
// the unit's cgroup is made level by level with the controllers handed
// down through each parent's cgroup.subtree_control, and the settings
// become cpu.max, memory.max, memory.high and cpuset.cpus.
func TestCgroupV2Writes(t *testing.T) {
	root := t.TempDir()
	l := layout{unified: root, v2ctl: map[string]bool{"cpu": true, "memory": true, "cpuset": true, "io": true}, v1: map[string]string{}}
	writes, err := limitWrites(l, map[string]string{"CPUQuota": "50%", "MemoryMax": "64M", "MemoryHigh": "48M",
		"AllowedCPUs": "1 0", "LimitNOFILE": "1024"}, func() (uint64, error) { return 0, nil })
	if err != nil {
		t.Fatal(err)
	}
	rel := "/pgrst-lab/0a1b2c3d/x.service"
	cg, err := createCgroup(l, rel, writes)
	if err != nil {
		t.Fatal(err)
	}
	leaf := filepath.Join(root, rel)
	for file, want := range map[string]string{"cpu.max": "50000 100000", "memory.max": "67108864", "memory.high": "50331648", "cpuset.cpus": "0,1"} {
		if got := read(t, filepath.Join(leaf, file)); got != want {
			t.Errorf("%s = %q, want %q", file, got, want)
		}
	}
	for _, dir := range []string{root, filepath.Join(root, "pgrst-lab"), filepath.Join(root, "pgrst-lab", "0a1b2c3d")} {
		if got := read(t, filepath.Join(dir, "cgroup.subtree_control")); got != "+cpu +cpuset +memory" {
			t.Errorf("%s/cgroup.subtree_control = %q, want the three controllers", dir, got)
		}
	}
	if cg.Rel != rel || cg.Dirs["memory"] != leaf || cg.Dirs["cpu"] != leaf {
		t.Errorf("cgroup %+v", cg)
	}
	if err := cg.attach(4242); err != nil {
		t.Fatal(err)
	}
	if got := read(t, filepath.Join(leaf, "cgroup.procs")); got != "4242" {
		t.Errorf("cgroup.procs = %q", got)
	}
	// memory.events is v2's OOM counter.
	if err := os.WriteFile(filepath.Join(leaf, "memory.events"), []byte("low 0\nhigh 3\nmax 9\noom 2\noom_kill 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if n := cg.oomKills(); n != 2 {
		t.Errorf("oomKills = %d, want 2", n)
	}
	// infinity is v2's "max"; a percentage is of physical memory.
	w, err := limitWrites(l, map[string]string{"MemoryMax": "infinity", "MemoryHigh": "50%"}, func() (uint64, error) { return 1000, nil })
	if err != nil || len(w) != 2 || w[0].value != "500" || w[1].value != "max" {
		t.Errorf("MemoryHigh=50%%, MemoryMax=infinity: %+v, %v", w, err)
	}
}

// The v1 files, and what v1 cannot do.
func TestCgroupV1Writes(t *testing.T) {
	l := layout{v1: map[string]string{"cpu": "/c", "memory": "/m", "cpuset": "/s"}}
	w, err := limitWrites(l, map[string]string{"CPUQuota": "150%", "MemoryMax": "1G"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, x := range w {
		got = append(got, x.ctl+":"+x.file+"="+x.value)
	}
	want := "cpu:cpu.cfs_period_us=100000 cpu:cpu.cfs_quota_us=150000 memory:memory.limit_in_bytes=1073741824 memory:memory.memsw.limit_in_bytes=1073741824"
	if strings.Join(got, " ") != want {
		t.Errorf("writes %s\nwant   %s", strings.Join(got, " "), want)
	}
	if _, err := limitWrites(l, map[string]string{"MemoryHigh": "1G"}, nil); err == nil || !strings.Contains(err.Error(), "MemoryHigh=1G: needs cgroup v2") {
		t.Errorf("MemoryHigh on v1: %v", err)
	}
	if _, err := limitWrites(layout{}, map[string]string{"CPUQuota": "50%"}, nil); err == nil || !strings.Contains(err.Error(), "CPUQuota=50% needs the cpu cgroup controller") {
		t.Errorf("CPUQuota without cgroups: %v", err)
	}
}

// The layout comes from mountinfo: a hybrid host's v1 controllers (one
// mount may hold two) and its controller-less v2 mount.
func TestReadLayout(t *testing.T) {
	mi := filepath.Join(t.TempDir(), "mountinfo")
	lines := `30 22 0:27 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
31 30 0:28 / /sys/fs/cgroup/cpu,cpuacct rw,relatime - cgroup cgroup rw,cpu,cpuacct
33 30 0:30 / /sys/fs/cgroup/cpuset rw,relatime - cgroup cgroup rw,cpuset
34 30 0:31 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
39 30 0:36 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,name=systemd
40 30 0:37 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
`
	if err := os.WriteFile(mi, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := readLayout(mi)
	if err != nil {
		t.Fatal(err)
	}
	if l.v1["cpu"] != "/sys/fs/cgroup/cpu,cpuacct" || l.v1["cpuacct"] != l.v1["cpu"] || l.v1["memory"] != "/sys/fs/cgroup/memory" ||
		l.v1["cpuset"] != "/sys/fs/cgroup/cpuset" || l.unified != "/sys/fs/cgroup/unified" || len(l.v1) != 4 {
		t.Errorf("layout %+v", l)
	}
	if m, v2 := l.hierarchy("memory"); m != "/sys/fs/cgroup/memory" || v2 {
		t.Errorf("memory in %s (v2 %v)", m, v2)
	}
}

func read(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}
