package telemetry

import (
	"context"
	"strings"
	"testing"
	"time"
)

// A busy loop of about 0.2-0.5 s of CPU in dash, then the tree idles.
const burnScript = `i=0; while [ $i -lt 400000 ]; do i=$((i+1)); done`

func TestSamplerProcessTree(t *testing.T) {
	cmd := startTree(t, "sleep 60 & sleep 60 & sleep 60 & "+burnScript+"; wait")
	s := NewSampler(50*time.Millisecond, Source{Name: "tree", RootPID: cmd.Process.Pid})
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	s.Mark("run")
	waitFor(t, 10*time.Second, "the busy loop to end", func() bool {
		se, _ := s.Snapshot().Source("tree")
		n := len(se.Samples)
		return n > 3 && se.Samples[n-1].CPUSeconds > 0.05 && se.Samples[n-1].CPUSeconds == se.Samples[n-3].CPUSeconds
	})
	rec := s.Stop()
	se, _ := rec.Source("tree")
	if se.CPUFrom != "proc" || se.Errors != 0 {
		t.Fatalf("cpu from %q, errors %d (%s)", se.CPUFrom, se.Errors, se.LastErr)
	}
	last := se.Samples[len(se.Samples)-1]
	if last.Procs != 4 || last.Threads != 4 || last.FDs < 4*3 || last.RSS == 0 || last.CtxSwitches == 0 {
		t.Errorf("last sample %+v: want 4 processes (sh + 3 sleep), 4 threads, >= 12 fds, RSS and ctx switches", last)
	}
	u := rec.SummaryOf("run")["tree"]
	if u.CPUSeconds < 0.05 || u.CPUUtil <= 0 || u.PeakRSS < u.MeanRSS || u.MeanRSS == 0 {
		t.Errorf("usage %+v", u)
	}
	if m := rec.MachineSummary(rec.Start, rec.End); m.Samples < 3 || m.CPUCores <= 0 || m.PeakMemUsed == 0 {
		t.Errorf("machine %+v (err %q)", m, rec.MachineErr)
	}
	t.Logf("tree: %d samples, cpu %.3fs util %.2f peak RSS %d KiB, machine %+v", u.Samples, u.CPUSeconds, u.CPUUtil, u.PeakRSS>>10, rec.MachineSummary(rec.Start, rec.End))
}

func TestSamplerCgroupUnit(t *testing.T) {
	unit := unitName("tel")
	cg := systemdRun(t, unit, nil, "/bin/sh", "-c", "sleep 60 & sleep 60 & sleep 60 & "+burnScript+"; wait")
	s := NewSampler(50*time.Millisecond, Source{Name: "unit", ControlGroup: cg})
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 10*time.Second, "the busy loop to end", func() bool {
		se, _ := s.Snapshot().Source("unit")
		n := len(se.Samples)
		return n > 3 && se.Samples[n-1].Procs == 4 && se.Samples[n-1].CPUSeconds > 0.05 && se.Samples[n-1].CPUSeconds == se.Samples[n-3].CPUSeconds
	})
	// Cross-check the cgroup counter against the processes' own times.
	pc := newCollector(DefaultFS, Source{Name: "tree", RootPID: mainPID(t, unit)})
	tree, err := pc.collect(time.Now(), true)
	if err != nil {
		t.Fatal(err)
	}
	rec := s.Stop()
	se, _ := rec.Source("unit")
	if !strings.HasPrefix(se.CPUFrom, "cgroup:") || !strings.HasSuffix(se.CPUFrom, cg+"/cpu.stat") {
		t.Errorf("CPU from %q, want the unit's cgroup cpu.stat", se.CPUFrom)
	}
	last := se.Samples[len(se.Samples)-1]
	if last.CgroupMem == 0 || last.RSSAnon == 0 || last.RSSAnon > last.RSS {
		t.Errorf("memory: cgroup %d, anon %d, RSS %d", last.CgroupMem, last.RSSAnon, last.RSS)
	}
	if last.Procs != 4 || tree.Procs != 4 {
		t.Errorf("procs: cgroup %d, tree %d, want 4", last.Procs, tree.Procs)
	}
	// /proc times tick at 10 ms per process; allow 30 ms plus 10%.
	if d := last.CPUSeconds - tree.CPUSeconds; d > 0.03+0.1*last.CPUSeconds || d < -0.03-0.1*last.CPUSeconds {
		t.Errorf("cgroup CPU %.3fs vs /proc CPU %.3fs", last.CPUSeconds, tree.CPUSeconds)
	}
	t.Logf("unit %s: cgroup CPU %.3fs, /proc CPU %.3fs, %d samples", cg, last.CPUSeconds, tree.CPUSeconds, len(se.Samples))
}

// TestSamplerBudgetKeepsCPUFresh: with a starved budget most ticks are
// cheap (no status or fd reads), but each still reads CPU time, from the
// cgroup's counter or, for a process tree, from /proc/<pid>/stat, so a busy
// source's per-sample CPU advances on cheap ticks too.
func TestSamplerBudgetKeepsCPUFresh(t *testing.T) {
	script := "sleep 60 & while :; do :; done" // busy until the cleanup kills it
	for _, kind := range []string{"cgroup", "tree"} {
		t.Run(kind, func(t *testing.T) {
			src := Source{Name: "busy"}
			if kind == "cgroup" {
				src.ControlGroup = systemdRun(t, unitName("budget"), nil, "/bin/sh", "-c", script)
			} else {
				src.RootPID = startTree(t, script).Process.Pid
				waitFor(t, 5*time.Second, "the tree's 2 processes", func() bool {
					s, err := newCollector(DefaultFS, src).collect(time.Now(), true)
					return err == nil && s.Procs == 2
				})
			}
			s := NewSampler(20*time.Millisecond, src).WithBudget(1e-6)
			if err := s.Start(context.Background()); err != nil {
				t.Fatal(err)
			}
			waitFor(t, 30*time.Second, "20 cheap samples", func() bool {
				n := 0
				for _, x := range s.Snapshot().Series[0].Samples {
					if !x.Detail {
						n++
					}
				}
				return n >= 20
			})
			rec := s.Stop()
			se := rec.Series[0]
			if se.DetailEvery < 5 {
				t.Fatalf("DetailEvery = %d with a starved budget", se.DetailEvery)
			}
			var cheap, cheapCPUSteps int
			for i, x := range se.Samples {
				if i == 0 || x.Detail {
					continue
				}
				cheap++
				if x.CPUSeconds > se.Samples[i-1].CPUSeconds {
					cheapCPUSteps++
				}
				if x.Procs != 2 || x.RSS != se.Samples[i-1].RSS {
					t.Errorf("cheap sample %d: %+v, want 2 procs and the RSS carried over", i, x)
				}
			}
			// How many 20 ms windows see progress depends on how much CPU the
			// loop gets on a shared machine (and /proc/<pid>/stat counts in
			// 10 ms ticks); a value carried over from the last detailed tick
			// would show none at all.
			if cheap < 5 || cheapCPUSteps < 2 {
				t.Errorf("%d cheap samples, %d with CPU progress: want the busy loop seen on cheap ticks", cheap, cheapCPUSteps)
			}
		})
	}
}
