// Package telemetry records what a service costs while the lab loads it:
// CPU time, memory, threads, file descriptors and context switches of the
// processes of a service (PostgREST, PostgreSQL), whole-machine CPU and
// memory, OOM kills, crashes and unexpected restarts, and database-side
// counters (pg_stat_database, pg_stat_statements, pg_stat_activity, and
// PostgREST's Prometheus pool metrics).
//
// The package is an adapter: it does not import the lab's systemd package.
// A service is described by plain values (a cgroup path such as
// "/app.slice/lab-postgrest.service" and/or a root PID), and restart
// counters are passed in through a function.
//
// It sits under systemd/, the server host (units, supervisors, and what
// they observe), because it observes that host and its units.
//
// # Sampler
//
//	s := telemetry.NewSampler(100*time.Millisecond,
//		telemetry.Source{Name: "postgrest", ControlGroup: "/app.slice/lab-postgrest.service"},
//		telemetry.Source{Name: "postgres", RootPID: pgPID})
//	if err := s.Start(ctx); err != nil { ... }
//	s.Mark("trial-1")
//	... load ...
//	s.Mark("idle")
//	rec := s.Stop()
//	u := rec.SummaryOf("trial-1")["postgrest"]
//	fmt.Println(u.CPUUtil, u.PeakRSS, u.CPUMicrosPerRequest(requests))
//
// Cost: listing a cgroup and reading its CPU counter happen on every tick;
// the per-process files (status, fd, stat) cost ~20 µs per process, so
// they are read on every tick only while that stays within a budget
// (DefaultBudget, 1% of a core; WithBudget), else every few ticks and
// Sample.Detail is false in between. Measured here at 10 Hz: 0.5-0.8% of a
// core for four processes, 1.1% for forty (go test -bench Sampler10Hz).
//
// Each collector reads one kind of file and lives in its own file
// (node_exporter style); all of them read through an FS, so unit tests run
// against the fixture tree in testdata/.
//
// CPU time of a source comes from its cgroup's cpu.stat usage_usec (cgroup
// v2, found under /sys/fs/cgroup/unified on hybrid hosts and under
// /sys/fs/cgroup on pure v2 hosts), else v1 cpuacct.usage, else the sum of
// utime+stime(+cutime+cstime) of its processes from /proc/<pid>/stat. The
// processes are those in cgroup.procs or, without a cgroup, the process
// tree under RootPID (walked through /proc/<pid>/task/<tid>/children, or a
// scan of /proc when the kernel lacks that file). gopsutil's
// Process.Children is not used: it runs pgrep on every call.
//
// # Events
//
//	w := telemetry.NewWatcher(telemetry.Target{Source: "postgrest",
//		ControlGroup: props.ControlGroup,
//		State: func(ctx context.Context) (int, int, error) { ... MainPID, NRestarts ... }})
//	w.Start(ctx)
//	w.SetContext(map[string]string{"variant": "socket", "trial": "3", "rate": "2000"})
//	done := w.Expect("postgrest") // the lab restarts it on purpose
//	... restart, wait for readiness ...
//	done()
//	events := w.Stop()
//
// KmsgReader follows the kernel log (/dev/kmsg, root) for "oom-kill:"
// records, matched to a target by cgroup (or, without one, by main PID);
// FS.OOMKills reads the cgroup oom_kill counters (v2 memory.events, v1
// memory.oom_control), which the Watcher uses when the kernel log cannot
// be read. A growth of NRestarts is a restart event; a main process that
// vanished and was not restarted within RestartGrace is a crash, or at
// once when Flush is called (the end of a trial's window). Events
// carry the caller's context (variant, trial, request rate) in
// Event.Context.
//
// # Database
//
// ReadDB reads PostgreSQL's counters once (use one dedicated connection);
// Delta of two readings (SumDeltas of several) gives the work done in a
// window without the readings' own transactions, and PerRequest relates it
// to HTTP requests. pg_stat_database lags: see DBStatsIdleFlush.
// ScrapePool reads PostgREST's admin /metrics pool gauges.
package telemetry
