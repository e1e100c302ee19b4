package telemetry

import (
	"context"
	"slices"
	"testing"
	"time"
)

var fixture = FS{Proc: "testdata/fixture/proc", Cgroup: "testdata/fixture/sys/fs/cgroup"}

func TestParseStatCommWithParens(t *testing.T) {
	b, err := readFile("testdata/fixture/proc/100/stat", make([]byte, 4096))
	if err != nil {
		t.Fatal(err)
	}
	st, ok := parseStat(b)
	if !ok {
		t.Fatal("parseStat failed")
	}
	want := procStat{ppid: 1, utime: 150, stime: 50, cutime: 10, cstime: 0}
	if st != want {
		t.Fatalf("got %+v, want %+v", st, want)
	}
	if got := st.cpuSeconds(); got != 2.1 {
		t.Fatalf("cpuSeconds = %v, want 2.1", got)
	}
}

func TestReadStatusSumsThreads(t *testing.T) {
	st, err := fixture.readStatus(100, make([]byte, 4096))
	if err != nil {
		t.Fatal(err)
	}
	// main thread 7+3, thread 103 40+2
	want := procStatus{rss: 2048 * 1024, rssAnon: 1000 * 1024, threads: 2, ctxSwitches: 52}
	if st != want {
		t.Fatalf("got %+v, want %+v", st, want)
	}
}

func TestTreeProcsFollowsEveryThread(t *testing.T) {
	got, err := fixture.treeProcs(100, make([]byte, 4096), nil)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	if want := []int{100, 101, 102}; !slices.Equal(got, want) {
		t.Fatalf("tree = %v, want %v", got, want)
	}
	got, err = fixture.scanTree(100, make([]byte, 4096), nil)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	if want := []int{100, 101, 102}; !slices.Equal(got, want) {
		t.Fatalf("scan = %v, want %v", got, want)
	}
}

func TestCollectFixtureSources(t *testing.T) {
	cases := []struct {
		src     Source
		cpu     float64
		procs   int
		rss     uint64
		threads int
		fds     int
		ctx     uint64
		from    string
	}{
		{Source{Name: "hybrid", ControlGroup: "/app.slice/svc.service"}, 1.5, 3, 3584 << 10, 4, 10, 52 + 2 + 2,
			"cgroup:testdata/fixture/sys/fs/cgroup/unified/app.slice/svc.service/cpu.stat"},
		{Source{Name: "pure-v2", ControlGroup: "/app.slice/pure.service"}, 0.25, 1, 1024 << 10, 1, 3, 2,
			"cgroup:testdata/fixture/sys/fs/cgroup/app.slice/pure.service/cpu.stat"},
		{Source{Name: "v1-cpuacct", ControlGroup: "/app.slice/v1only.service"}, 2, 1, 4096 << 10, 1, 4, 100,
			"cgroup:testdata/fixture/sys/fs/cgroup/cpuacct/app.slice/v1only.service/cpuacct.usage"},
		// proc tree: (150+50+10) + (20+10) + (5+5) ticks
		{Source{Name: "tree", RootPID: 100}, 2.5, 3, 3584 << 10, 4, 10, 56, "proc"},
	}
	for _, c := range cases {
		t.Run(c.src.Name, func(t *testing.T) {
			col := newCollector(fixture, c.src)
			s, err := col.collect(time.Unix(1, 0), true)
			if err != nil {
				t.Fatal(err)
			}
			if s.CPUSeconds != c.cpu || s.Procs != c.procs || s.RSS != c.rss || s.Threads != c.threads || s.FDs != c.fds || s.CtxSwitches != c.ctx {
				t.Errorf("sample %+v; want cpu=%v procs=%d rss=%d threads=%d fds=%d ctx=%d", s, c.cpu, c.procs, c.rss, c.threads, c.fds, c.ctx)
			}
			if want := uint64(c.procs) * 1000 << 10; s.RSSAnon != want {
				t.Errorf("RSSAnon %d, want %d", s.RSSAnon, want)
			}
			if want := map[string]uint64{"pure-v2": 7 << 20, "v1-cpuacct": 5 << 20}[c.src.Name]; s.CgroupMem != want {
				t.Errorf("CgroupMem %d, want %d", s.CgroupMem, want)
			}
			// The kernel's own high-water mark: memory.peak (v2), memory.max_usage_in_bytes (v1).
			if want := map[string]uint64{"pure-v2": 9 << 20, "v1-cpuacct": 6 << 20}[c.src.Name]; s.CgroupPeak != want {
				t.Errorf("CgroupPeak %d, want %d", s.CgroupPeak, want)
			}
			if col.cpuFrom() != c.from {
				t.Errorf("cpu from %q, want %q", col.cpuFrom(), c.from)
			}
		})
	}
}

func TestCollectMissingCgroupIsDown(t *testing.T) {
	col := newCollector(fixture, Source{Name: "gone", ControlGroup: "/app.slice/nope.service"})
	s, err := col.collect(time.Now(), true)
	if err != nil || s.Procs != 0 {
		t.Fatalf("got %+v, %v; want Procs=0 and no error", s, err)
	}
	col = newCollector(fixture, Source{Name: "gone", RootPID: 999999})
	if s, err = col.collect(time.Now(), true); err != nil || s.Procs != 0 {
		t.Fatalf("tree: got %+v, %v; want Procs=0 and no error", s, err)
	}
}

func TestReadMachineFixture(t *testing.T) {
	m, err := fixture.readMachine(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// cpu line: user 1000 nice 10 system 500 idle 8000 iowait 100 irq 0 softirq 50 (ticks)
	if !near(m.CPUSeconds, 96.6) || !near(m.CPUBusySeconds, 15.6) {
		t.Errorf("cpu all=%v busy=%v, want 96.6 and 15.6", m.CPUSeconds, m.CPUBusySeconds)
	}
	if m.MemTotal != 24000000*1024 || m.MemAvailable != 20000000*1024 || m.MemUsed != 4000000*1024 {
		t.Errorf("mem %+v", m)
	}
}

func TestSourceValidate(t *testing.T) {
	if errs := (Source{}).Validate(); len(errs) != 2 {
		t.Errorf("empty source: %v", errs)
	}
	if errs := (Source{Name: "x", ControlGroup: "app.slice/x"}).Validate(); len(errs) != 1 {
		t.Errorf("relative cgroup: %v", errs)
	}
	if err := NewSampler(0).Start(context.Background()); err == nil {
		t.Error("Start with no sources: no error")
	}
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }
