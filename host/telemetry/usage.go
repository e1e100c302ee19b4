package telemetry

import (
	"strings"
	"time"
)

// Usage is what a source used in a window, derived from its samples.
type Usage struct {
	Source      string
	From, To    time.Time // first and last sample in the window
	Samples     int       // samples in the window
	Down        int       // of which the service was not running (Procs == 0)
	CPUSeconds  float64   // CPU time spent in the window
	CPUUtil     float64   // CPUSeconds per wall second: 1.0 = one core busy
	PeakRSS     uint64    // bytes, highest sample
	MeanRSS     uint64    // bytes, mean over samples where it ran
	PeakRSSAnon uint64    // bytes, private memory, highest sample
	// PeakCgroup is the most memory charged to the cgroup: the highest
	// sample, or the kernel's own high-water mark (CgroupPeak, since the
	// cgroup was made: the target's start) when higher; 0 without.
	// It is what MemoryMax= limits, unlike RSS, which counts the file
	// pages mapped (the binary, its libraries) whoever they are charged to.
	PeakCgroup  uint64
	MeanCgroup  uint64 // bytes charged to the cgroup, mean over samples where it ran
	MaxProcs    int
	MaxThreads  int
	MaxFDs      int
	CtxSwitches uint64 // context switches in the window (live threads)
}

// CPUMicrosPerRequest is the server CPU time per request in µs, given the
// number of requests served in the window; 0 when requests <= 0.
func (u Usage) CPUMicrosPerRequest(requests int64) float64 {
	if requests <= 0 {
		return 0
	}
	return u.CPUSeconds * 1e6 / float64(requests)
}

// Summary derives the usage between from and to (inclusive) from the
// samples. Counters are summed over consecutive positive steps. A counter
// that goes down is a reset: with cgroup CPU time it is a new cgroup after
// a restart, counted from zero; with per-process CPU time a process left
// the tree, and the step counts as zero.
func (s Series) Summary(from, to time.Time) Usage {
	u := Usage{Source: s.Source.Name}
	cgroupCPU := strings.HasPrefix(s.CPUFrom, "cgroup:")
	var prev *Sample
	var rssSum, cgSum float64
	var up int
	for i := range s.Samples {
		x := &s.Samples[i]
		if x.T.Before(from) || x.T.After(to) {
			continue
		}
		if u.Samples == 0 {
			u.From = x.T
		}
		u.To = x.T
		u.Samples++
		if x.Procs == 0 {
			u.Down++
		} else {
			up++
			rssSum += float64(x.RSS)
			cgSum += float64(x.CgroupMem)
			u.PeakRSS = max(u.PeakRSS, x.RSS)
			u.PeakRSSAnon = max(u.PeakRSSAnon, x.RSSAnon)
			u.PeakCgroup = max(u.PeakCgroup, x.CgroupMem, x.CgroupPeak)
			u.MaxProcs = max(u.MaxProcs, x.Procs)
			u.MaxThreads = max(u.MaxThreads, x.Threads)
			u.MaxFDs = max(u.MaxFDs, x.FDs)
		}
		if prev != nil {
			switch {
			case x.CPUSeconds >= prev.CPUSeconds:
				u.CPUSeconds += x.CPUSeconds - prev.CPUSeconds
			case cgroupCPU:
				u.CPUSeconds += x.CPUSeconds
			}
			if x.CtxSwitches >= prev.CtxSwitches && prev.Procs > 0 {
				u.CtxSwitches += x.CtxSwitches - prev.CtxSwitches
			}
		}
		prev = x
	}
	if up > 0 {
		u.MeanRSS = uint64(rssSum / float64(up))
		u.MeanCgroup = uint64(cgSum / float64(up))
	}
	if d := u.To.Sub(u.From).Seconds(); d > 0 {
		u.CPUUtil = u.CPUSeconds / d
	}
	return u
}

// MachineUsage is whole-machine use in a window.
type MachineUsage struct {
	From, To    time.Time
	Samples     int
	CPUUtil     float64 // busy share of all CPUs, 0..1
	CPUCores    float64 // busy CPU seconds per wall second (steal included)
	StealCores  float64 // CPU seconds the hypervisor stole per wall second
	PeakMemUsed uint64  // bytes (total - available)
	MeanMemUsed uint64
}

// MachineSummary derives whole-machine use between from and to.
func (r Recording) MachineSummary(from, to time.Time) MachineUsage {
	var u MachineUsage
	var first, last *MachineSample
	var memSum float64
	for i := range r.Machine {
		m := &r.Machine[i]
		if m.T.Before(from) || m.T.After(to) {
			continue
		}
		if first == nil {
			first = m
		}
		last = m
		u.Samples++
		memSum += float64(m.MemUsed)
		u.PeakMemUsed = max(u.PeakMemUsed, m.MemUsed)
	}
	if first == nil {
		return u
	}
	u.From, u.To = first.T, last.T
	u.MeanMemUsed = uint64(memSum / float64(u.Samples))
	if all := last.CPUSeconds - first.CPUSeconds; all > 0 {
		u.CPUUtil = (last.CPUBusySeconds - first.CPUBusySeconds) / all
	}
	if d := last.T.Sub(first.T).Seconds(); d > 0 {
		u.CPUCores = (last.CPUBusySeconds - first.CPUBusySeconds) / d
		u.StealCores = (last.StealSeconds - first.StealSeconds) / d
	}
	return u
}
