package telemetry

import (
	"context"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fourSleeps is a tree of four processes: the exec'd sleep and its three
// background children.
const fourSleeps = "sleep 600 & sleep 600 & sleep 600 & exec sleep 600"

// benchSources starts the four-process tree under systemd (cgroup source)
// and directly (process-tree source).
func benchSources(b *testing.B) map[string]Source {
	cg := systemdRun(b, unitName("bench"), nil, "/bin/sh", "-c", fourSleeps)
	cmd := startTree(b, fourSleeps)
	srcs := map[string]Source{
		"cgroup": {Name: "cgroup", ControlGroup: cg},
		"tree":   {Name: "tree", RootPID: cmd.Process.Pid},
	}
	for name, src := range srcs {
		waitFor(b, 5*time.Second, name+" to have 4 processes", func() bool {
			s, err := newCollector(DefaultFS, src).collect(time.Now(), true)
			return err == nil && s.Procs == 4
		})
	}
	return srcs
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkCollect is the cost of one tick for one four-process source
// plus the machine figures; "%core@10Hz" is that cost ten times a second.
func BenchmarkCollect(b *testing.B) {
	srcs := benchSources(b)
	for _, name := range []string{"cgroup", "tree"} {
		b.Run(name, func(b *testing.B) {
			c := newCollector(DefaultFS, srcs[name])
			ctx := context.Background()
			b.ReportAllocs()
			cpu0 := cpuTime()
			for b.Loop() {
				if s, err := c.collect(time.Now(), true); err != nil || s.Procs != 4 {
					b.Fatalf("sample %+v, %v", s, err)
				}
				if _, err := DefaultFS.readMachine(ctx); err != nil {
					b.Fatal(err)
				}
			}
			perTick := (cpuTime() - cpu0) / time.Duration(b.N)
			b.ReportMetric(float64(perTick.Microseconds()), "cpu-µs/tick")
			b.ReportMetric(perTick.Seconds()*10*100, "%core@10Hz")
		})
	}
}

// BenchmarkIdleBaseline is the test process's own CPU while it only
// sleeps (Go runtime, benchmark harness): subtract it from
// BenchmarkSampler10Hz for the sampler's share.
func BenchmarkIdleBaseline(b *testing.B) {
	wall0, cpu0 := time.Now(), cpuTime()
	time.Sleep(time.Duration(b.N) * time.Second)
	b.ReportMetric(100*(cpuTime()-cpu0).Seconds()/time.Since(wall0).Seconds(), "%core")
}

// BenchmarkSampler10HzWide samples a unit of 40 processes (a PostgreSQL
// with ~30 backends has as many) at 10 Hz, with the default budget and
// with the budget off (every process read on every tick), and reports the
// process's own CPU as a share of one core.
func BenchmarkSampler10HzWide(b *testing.B) {
	cg := systemdRun(b, unitName("wide"), nil, "/bin/sh", "-c", strings.Repeat("sleep 600 & ", 39)+"exec sleep 600")
	src := Source{Name: "wide", ControlGroup: cg}
	waitFor(b, 5*time.Second, "40 processes", func() bool {
		s, err := newCollector(DefaultFS, src).collect(time.Now(), true)
		return err == nil && s.Procs == 40
	})
	for _, share := range []float64{DefaultBudget, 0} {
		b.Run(fmt.Sprintf("budget=%g", share), func(b *testing.B) {
			s := NewSampler(100*time.Millisecond, src).WithBudget(share)
			wall0, cpu0 := time.Now(), cpuTime()
			if err := s.Start(context.Background()); err != nil {
				b.Fatal(err)
			}
			time.Sleep(time.Duration(b.N) * time.Second)
			rec := s.Stop()
			pct := 100 * (cpuTime() - cpu0).Seconds() / time.Since(wall0).Seconds()
			se := rec.Series[0]
			last := se.Samples[len(se.Samples)-1]
			if se.Errors > 0 || last.Procs != 40 || last.FDs < 40*3 {
				b.Fatalf("last sample %+v, %d errors (%s)", last, se.Errors, se.LastErr)
			}
			b.ReportMetric(pct, "%core")
			b.ReportMetric(float64(se.DetailEvery), "detail-every")
			if share > 0 && pct > 2 {
				b.Errorf("sampler used %.2f%% of a core at 10 Hz with budget %g (limit 2%%)", pct, share)
			}
		})
	}
}

// BenchmarkSampler10Hz runs a real Sampler at 10 Hz on both four-process
// sources for one second per iteration (use -benchtime=10x for 10 s) and
// reports the test process's own CPU time (getrusage RUSAGE_SELF) as a
// share of one core. It fails above the 2% budget.
func BenchmarkSampler10Hz(b *testing.B) {
	srcs := benchSources(b)
	for _, name := range []string{"cgroup", "tree", "both"} {
		b.Run(name, func(b *testing.B) {
			var list []Source
			if name == "both" {
				list = []Source{srcs["cgroup"], srcs["tree"]}
			} else {
				list = []Source{srcs[name]}
			}
			s := NewSampler(100*time.Millisecond, list...)
			wall0, cpu0 := time.Now(), cpuTime()
			if err := s.Start(context.Background()); err != nil {
				b.Fatal(err)
			}
			time.Sleep(time.Duration(b.N) * time.Second)
			rec := s.Stop()
			wall, cpu := time.Since(wall0), cpuTime()-cpu0
			pct := 100 * cpu.Seconds() / wall.Seconds()
			for _, se := range rec.Series {
				if n := len(se.Samples); n < 9*b.N || se.Errors > 0 || se.Samples[n-1].Procs != 4 {
					b.Fatalf("%s: %d samples, %d errors (%s)", se.Source.Name, n, se.Errors, se.LastErr)
				}
			}
			b.ReportMetric(pct, "%core")
			b.ReportMetric(float64(len(rec.Series[0].Samples))/wall.Seconds(), "samples/s")
			if pct > 2 {
				b.Errorf("sampler used %.2f%% of a core at 10 Hz (budget 2%%)", pct)
			}
		})
	}
}
