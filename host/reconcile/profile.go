package reconcile

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/pgrst-lab/pgrst-lab/host/profiler"
	"github.com/pgrst-lab/pgrst-lab/host/telemetry"
	"github.com/pgrst-lab/pgrst-lab/internal/safefile"
	"github.com/pgrst-lab/pgrst-lab/lab"
)

// ghcStatsFile is where a Haskell target writes its GC statistics
// (+RTS -S) while profiling: next to its log. "" when that does not apply:
// not profiling, the reference server (a Go program), or a unit the lab did
// not create (its command line is not the lab's to change).
func (l *Server) ghcStatsFile() string {
	spec := l.cfg.TargetSpec
	if !l.cfg.Profile || l.cfg.Reference || spec == nil || spec.LogFile == "" {
		return ""
	}
	return filepath.Join(filepath.Dir(spec.LogFile), "ghc-rts-stats.log")
}

// ghcStatsArgs are the runtime options that make a Haskell target write
// its GC statistics, and the note the report lists with the variant. The
// target (as its own user: Config.TargetUser) opens the file by name and
// follows links: its directory must be one no other user can write
// (safefile), and unitArgv leaves a fresh plain file there, given to the
// target's user, before the target starts.
func (l *Server) ghcStatsArgs() ([]string, []lab.Change, error) {
	f := l.ghcStatsFile()
	if f == "" {
		return nil, nil, nil
	}
	if err := safefile.CheckPrivateDir(filepath.Dir(f)); err != nil {
		return nil, nil, fmt.Errorf("profile: the GHC runtime statistics file %s: %w (make its directory writable by its owner only)", f, err)
	}
	return []string{"+RTS", "-S" + f, "-RTS"},
		[]lab.Change{{Where: "note", Key: "GHC runtime statistics", To: "+RTS -S" + f + " -RTS (profile = true)"}}, nil
}

// profiling is a window's profile recorders: perf, the GHC statistics
// file's offset at the start, and the statements before it.
type profiling struct {
	rec     *profiler.Recorder
	sources []telemetry.Source
	ghcFrom int64
	stmts   map[string]telemetry.StatementCounter
}

// startProfile starts perf on the target's and PostgreSQL's processes,
// enabled from now on; nil when not profiling.
func (l *Server) startProfile(ctx context.Context, sources []telemetry.Source) (*profiling, error) {
	if !l.cfg.Profile {
		return nil, nil
	}
	p := &profiling{ghcFrom: profiler.FileSize(l.ghcStatsFile()), sources: sources}
	var err error
	for try := 0; try < 2; try++ { // a process that exits between the listing and perf's start: list again
		var procs []profiler.Process
		if procs, err = processes(sources); err != nil {
			return nil, err
		}
		if p.rec, err = profiler.Start(ctx, l.cfg.StateDir, procs); err == nil {
			return p, nil
		}
	}
	return nil, fmt.Errorf("profile: %w", err)
}

// processes lists the sources' processes now (at the window's start and
// again at its end, for processes started during it).
func processes(sources []telemetry.Source) ([]profiler.Process, error) {
	var procs []profiler.Process
	for _, src := range sources {
		pids, err := telemetry.DefaultFS.Processes(src)
		if err != nil {
			return nil, fmt.Errorf("profile: processes of %s: %w", src.Name, err)
		}
		for _, pid := range pids {
			procs = append(procs, profiler.Process{PID: pid, Service: src.Name})
		}
	}
	return procs, nil
}

// ghcStats reads the GHC statistics written since the window started.
func (l *Server) ghcStats(p *profiling, requests int64) (*lab.GHCStats, error) {
	f := l.ghcStatsFile()
	if p == nil || f == "" {
		return nil, nil
	}
	w, err := profiler.ReadGHCStats(f, p.ghcFrom, profiler.FileSize(f))
	if err != nil {
		return nil, fmt.Errorf("GHC runtime statistics: %w", err)
	}
	g := &lab.GHCStats{BytesAllocated: w.BytesAllocated, GCs: w.GCs, MajorGCs: w.MajorGCs,
		GCCPUSeconds: w.GCCPUSeconds, CPUSeconds: w.CPUSeconds, MaxLiveBytes: w.MaxLiveBytes}
	for _, p := range w.Live {
		g.Live = append(g.Live, lab.LiveSample{T: p.Seconds, Bytes: p.Bytes})
	}
	if requests > 0 {
		g.AllocPerRequest = float64(w.BytesAllocated) / float64(requests)
	}
	if w.CPUSeconds > 0 {
		g.GCShare = min(1, w.GCCPUSeconds/w.CPUSeconds)
	}
	return g, nil
}

// cpuProfile folds the window's perf samples into the record's form.
func cpuProfile(ctx context.Context, p *profiling) (*lab.CPUProfile, error) {
	if p == nil {
		return nil, nil
	}
	if procs, err := processes(p.sources); err == nil {
		p.rec.Track(procs) // e.g. a PostgreSQL backend started during the window
	}
	prof, err := p.rec.Fold(ctx)
	if err != nil {
		return nil, fmt.Errorf("profile: %w", err)
	}
	out := &lab.CPUProfile{Samples: prof.Samples, PeriodNs: prof.PeriodNs, PerfCPUSeconds: prof.PerfCPUSeconds}
	for i, s := range prof.Stacks {
		if i >= lab.MaxStacks {
			out.Dropped += s.Count
			continue
		}
		out.Stacks = append(out.Stacks, lab.Stack{Frames: s.Frames, Count: s.Count})
	}
	return out, nil
}

// statements are the SQL statements between two readings, in the record's form.
func statements(a, b map[string]telemetry.StatementCounter) []lab.Statement {
	var out []lab.Statement
	for _, s := range telemetry.StatementDeltas(a, b) {
		out = append(out, lab.Statement{Query: s.Query, Calls: s.Calls, TotalMs: s.TotalMs, Rows: s.Rows})
	}
	return out
}
