package telemetry

import (
	"context"
	"testing"
	"time"
)

// TestSamplerBudget is the sampler's CPU budget as a test (the benchmarks
// BenchmarkSampler10Hz* measure it more precisely): at 10 Hz on a
// four-process tree, with the cgroup of a unit beside it when a manager
// runs, the test process may use at most 2 % of a core (times the race
// detector's slowdown, under -race), with 50 % tolerance for a noisy
// machine. CPU time is this process's own, so load elsewhere does not
// count against it.
func TestSamplerBudget(t *testing.T) {
	srcs := []Source{{Name: "tree", RootPID: startTree(t, fourSleeps).Process.Pid}}
	for _, src := range srcs {
		waitFor(t, 5*time.Second, src.Name+" to have 4 processes", func() bool {
			s, err := newCollector(DefaultFS, src).collect(time.Now(), true)
			return err == nil && s.Procs == 4
		})
	}
	s := NewSampler(100*time.Millisecond, srcs...)
	wall0, cpu0 := time.Now(), cpuTime()
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	<-time.After(3 * time.Second) // the measurement window (not a wait for a state)
	rec := s.Stop()
	wall, cpu := time.Since(wall0), cpuTime()-cpu0
	pct := 100 * cpu.Seconds() / wall.Seconds()
	limit := 2 * 1.5 * float64(raceSlowdown)
	t.Logf("sampler: %.2f%% of a core over %v (%d samples); limit %.1f%%", pct, wall.Round(time.Millisecond), len(rec.Series[0].Samples), limit)
	if se := rec.Series[0]; se.Errors > 0 || len(se.Samples) < 25 {
		t.Fatalf("%d samples in 3 s at 10 Hz, %d sampling errors (%s)", len(se.Samples), se.Errors, se.LastErr)
	}
	if pct > limit {
		t.Errorf("sampler used %.2f%% of a core at 10 Hz (limit %.1f%%)", pct, limit)
	}
}
