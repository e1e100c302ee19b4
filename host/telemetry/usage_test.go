package telemetry

import (
	"testing"
	"time"
)

func TestSeriesSummaryCountersAndResets(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	s := Series{
		Source:  Source{Name: "svc"},
		CPUFrom: "cgroup:/x/cpu.stat",
		Samples: []Sample{
			{T: at(0), CPUSeconds: 10, RSS: 100, Procs: 2, CtxSwitches: 5},
			{T: at(100), CPUSeconds: 10.05, RSS: 300, RSSAnon: 30, CgroupMem: 500, Procs: 2, CtxSwitches: 9, Threads: 7, FDs: 3},
			{T: at(200), Procs: 0}, // restarting: cgroup gone
			{T: at(300), CPUSeconds: 0.02, RSS: 200, Procs: 1, CtxSwitches: 1}, // new cgroup from 0
			{T: at(400), CPUSeconds: 0.07, RSS: 200, Procs: 1, CtxSwitches: 4},
			{T: at(500), CPUSeconds: 9, RSS: 999, Procs: 1}, // outside the window
		},
	}
	u := s.Summary(at(0), at(400))
	if u.Samples != 5 || u.Down != 1 {
		t.Fatalf("samples=%d down=%d", u.Samples, u.Down)
	}
	// 0.05 + (0 -> 0 cgroup gone) + 0.02 (reset, from zero) + 0.05
	if !near(u.CPUSeconds, 0.12) {
		t.Errorf("CPUSeconds = %v, want 0.12", u.CPUSeconds)
	}
	if !near(u.CPUUtil, 0.3) {
		t.Errorf("CPUUtil = %v, want 0.3 (0.12 s over 0.4 s)", u.CPUUtil)
	}
	if u.PeakRSS != 300 || u.MeanRSS != 200 {
		t.Errorf("peak=%d mean=%d, want 300 and 200 (mean over running samples)", u.PeakRSS, u.MeanRSS)
	}
	if u.PeakRSSAnon != 30 || u.PeakCgroup != 500 || u.MeanCgroup != 125 {
		t.Errorf("anon peak %d, cgroup peak %d mean %d; want 30, 500, 125", u.PeakRSSAnon, u.PeakCgroup, u.MeanCgroup)
	}
	// The kernel's high-water mark beats the samples when it saw more.
	s.Samples[3].CgroupPeak = 800
	if u := s.Summary(at(0), at(400)); u.PeakCgroup != 800 || u.MeanCgroup != 125 {
		t.Errorf("with memory.peak 800: cgroup peak %d mean %d; want 800, 125", u.PeakCgroup, u.MeanCgroup)
	}
	s.Samples[3].CgroupPeak = 0
	if u.CtxSwitches != 4+3 {
		t.Errorf("ctx switches = %d, want 7", u.CtxSwitches)
	}
	if u.MaxThreads != 7 || u.MaxFDs != 3 || u.MaxProcs != 2 {
		t.Errorf("max threads/fds/procs = %d/%d/%d", u.MaxThreads, u.MaxFDs, u.MaxProcs)
	}
	if got := u.CPUMicrosPerRequest(1200); !near(got, 100) {
		t.Errorf("µs/request = %v, want 100", got)
	}

	// Per-process CPU: a drop is a process leaving the tree, not a reset.
	s.CPUFrom = "proc"
	if u := s.Summary(at(0), at(100)); !near(u.CPUSeconds, 0.05) {
		t.Errorf("proc CPUSeconds = %v", u.CPUSeconds)
	}
	if u := s.Summary(at(300), at(400)); !near(u.CPUSeconds, 0.05) {
		t.Errorf("proc CPUSeconds after restart = %v", u.CPUSeconds)
	}
}

func TestRecordingWindows(t *testing.T) {
	t0 := time.Unix(1000, 0)
	r := Recording{
		End:   t0.Add(10 * time.Second),
		Marks: []Mark{{"a", t0}, {"b", t0.Add(2 * time.Second)}, {"a", t0.Add(5 * time.Second)}},
	}
	w, ok := r.Window("b")
	if !ok || !w.From.Equal(t0.Add(2*time.Second)) || !w.To.Equal(t0.Add(5*time.Second)) {
		t.Errorf("window b = %+v %v", w, ok)
	}
	w, ok = r.Window("a") // the last "a", to the end
	if !ok || !w.From.Equal(t0.Add(5*time.Second)) || !w.To.Equal(r.End) {
		t.Errorf("window a = %+v %v", w, ok)
	}
	if _, ok := r.Window("zzz"); ok {
		t.Error("unknown label found")
	}
}

func TestMachineSummary(t *testing.T) {
	t0 := time.Unix(1000, 0)
	r := Recording{Machine: []MachineSample{
		{T: t0, CPUBusySeconds: 100, CPUSeconds: 1000, MemUsed: 10},
		{T: t0.Add(time.Second), CPUBusySeconds: 101, CPUSeconds: 1002, MemUsed: 30},
	}}
	u := r.MachineSummary(t0, t0.Add(time.Second))
	if !near(u.CPUUtil, 0.5) || !near(u.CPUCores, 1) || u.PeakMemUsed != 30 || u.MeanMemUsed != 20 {
		t.Errorf("%+v", u)
	}
}
