package reconcile

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pgrst-lab/pgrst-lab/host/telemetry"
	"github.com/pgrst-lab/pgrst-lab/lab"
)

// SampleInterval is the telemetry interval (10 Hz).
const SampleInterval = 100 * time.Millisecond

// Watch implements lab.Server: until Stop, or until ctx ends, it samples
// PostgREST's and PostgreSQL's processes and reads PostgreSQL's counters
// at the start and end.
//
// Statements per request come from pg_stat_statements and are exact.
// Transactions per request come from pg_stat_database and are approximate:
// busy backends flush their counts at most once a second and idle ones only
// after 10 s (PostgreSQL 15), so up to a second of load per connection can
// fall on the wrong side of a window's edge.
//
// A window cannot start on a target that is not running, unless it died
// since the last window (in the trial's warm-up). Stop reports a target
// process that ended since then as an event (crash, restart or OOM kill,
// lab.Event.Fatal) that says why: its exit status or signal and what its
// log says of memory running out (windowEvents).
func (l *Server) Watch(ctx context.Context) (lab.Window, error) {
	// The watcher knows the target's process now; a death since the last
	// window (in this trial's warm-up) is this window's, and a target dead
	// for longer cannot be measured.
	l.watcher.Flush(ctx)
	seen, _ := l.deaths.get()
	died := l.pendingDeath(seen)
	if !died {
		if err := l.notRunning(ctx); err != nil {
			return nil, err
		}
	}
	var sources []telemetry.Source
	if src := l.source(ctx, "postgrest", l.cfg.TargetUnit); !died || src.ControlGroup != "" || src.RootPID > 0 {
		sources = append(sources, src) // a dead target has nothing to sample
	}
	if l.cfg.PGUnit != "" {
		sources = append(sources, l.source(ctx, "postgresql", l.cfg.PGUnit))
	}
	s := telemetry.NewSampler(SampleInterval, sources...)
	w := &window{l: l, sampler: s, seen: seen}
	conn, err := l.connect(ctx)
	if err == nil {
		_ = telemetry.EnsureStatements(ctx, conn)
		if w.db0, err = telemetry.ReadDB(ctx, conn); err == nil {
			w.conn = conn
			w.stmts0, _ = telemetry.ReadStatements(ctx, conn) // nil: no SQL per statement
			if l.cfg.ApplicationName != "" {
				if w.backends0, err = telemetry.DefaultFS.ReadBackends(ctx, conn, l.cfg.ApplicationName); err != nil {
					w.close(ctx)
					return nil, err
				}
			}
		} else {
			conn.Close(ctx)
			l.cfg.Logf("database counters unavailable: %v", err)
		}
	} else {
		l.cfg.Logf("database counters unavailable: %v", err)
	}
	if w.prof, err = l.startProfile(ctx, sources); err != nil {
		w.close(ctx)
		return nil, err
	}
	w.start = time.Now() // before Start, which takes the first sample
	if err := s.Start(ctx); err != nil {
		w.close(ctx)
		return nil, err
	}
	// The recordings end with ctx at the latest: a window whose Stop never
	// comes (a driver gone, an agent's window past its limit) leaves no
	// thread or scraper behind.
	w.speed = telemetry.StartSpeedRef(ctx, 0)
	if l.cfg.AdminURL != "" {
		w.pool = watchPool(ctx, l.cfg.AdminURL)
	}
	return w, nil
}

func (l *Server) source(ctx context.Context, name, unit string) telemetry.Source {
	p, err := l.cfg.Ctl.Properties(ctx, unit)
	if err != nil {
		return telemetry.Source{Name: name}
	}
	return telemetry.Source{Name: name, ControlGroup: p.ControlGroup, RootPID: p.MainPID}
}

type window struct {
	l       *Server
	sampler *telemetry.Sampler
	conn    *pgx.Conn
	db0     telemetry.DBCounters
	start   time.Time
	seen    int // the watcher's events from this index on are the window's
	pool    *poolWatch
	stmts0  map[string]telemetry.StatementCounter
	prof    *profiling // nil unless profiling
	speed   *telemetry.SpeedRef
	// backends0: the named backends at the start (Config.ApplicationName).
	backends0 telemetry.Backends
}

func (w *window) close(ctx context.Context) {
	if w.speed != nil {
		w.speed.Stop()
		w.speed = nil
	}
	if w.prof != nil {
		w.prof.rec.Discard(ctx)
	}
	if w.conn != nil {
		w.conn.Close(ctx)
		w.conn = nil
	}
}

// Stop implements lab.Window.
func (w *window) Stop(ctx context.Context, requests int64) (lab.Telemetry, error) {
	defer w.close(ctx)
	var perfErr error
	if w.prof != nil {
		perfErr = w.prof.rec.Stop(ctx) // the window's end, before anything else
	}
	rec := w.sampler.Stop()
	var speedNs float64
	if w.speed != nil {
		speedNs, _ = w.speed.Stop()
		w.speed = nil
	}
	var pool *lab.PoolStats
	var jwtCache *lab.JWTCacheStats
	if w.pool != nil {
		pool = w.pool.stop(ctx, w.l.cfg.AdminURL)
		jwtCache = w.pool.jwtCache()
	}
	var tel lab.Telemetry
	end := time.Now()
	sum := rec.Summary(w.start, end)
	mach := rec.MachineSummary(w.start, end)
	tel.MachineCPU, tel.StealCPU = mach.CPUCores, mach.StealCores
	tel.SpeedRefNs = speedNs
	tel.Server = usage(rec, "postgrest", sum["postgrest"], requests, w.start)
	tel.Database = usage(rec, "postgresql", sum["postgresql"], requests, w.start)
	if w.conn != nil {
		db1, err := telemetry.ReadDB(ctx, w.conn)
		if err != nil {
			return tel, fmt.Errorf("database counters: %w", err)
		}
		d := telemetry.Delta(w.db0, db1)
		per := d.PerRequest(requests)
		tel.DB = lab.DBStats{TransactionsPerRequest: per.Transactions, StatementsPerRequest: per.Statements, Rollbacks: d.XactRollback}
		if w.l.cfg.ApplicationName != "" {
			// One duet half: the database's counters and statements are
			// both halves'; its CPU is this half's backends'.
			tel.DB = lab.DBStats{}
			b1, err := telemetry.DefaultFS.ReadBackends(ctx, w.conn, w.l.cfg.ApplicationName)
			if err != nil {
				return tel, err
			}
			tel.Database = backendUsage(tel.Database, telemetry.BackendsCPU(w.backends0, b1), end.Sub(w.start), requests)
		} else if w.stmts0 != nil {
			if s1, err := telemetry.ReadStatements(ctx, w.conn); err == nil {
				tel.SQL = statements(w.stmts0, s1)
			}
		}
	}
	tel.DB.Pool, tel.DB.JWTCache = pool, jwtCache
	tel.Events = w.l.windowEvents(ctx, w.seen)
	if perfErr != nil {
		return tel, fmt.Errorf("profile: %w", perfErr)
	}
	var err error
	if tel.GHC, err = w.l.ghcStats(w.prof, requests); err != nil {
		return tel, err
	}
	if tel.Profile, err = cpuProfile(ctx, w.prof); err != nil {
		return tel, err
	}
	return tel, nil
}

// usage turns a telemetry summary and its samples into the record's form.
func usage(rec telemetry.Recording, name string, u telemetry.Usage, requests int64, start time.Time) lab.Usage {
	out := lab.Usage{CPUSeconds: u.CPUSeconds, CPUUtil: u.CPUUtil, PeakRSS: u.PeakRSS, MeanRSS: u.MeanRSS, PeakCgroup: u.PeakCgroup,
		CPUPerRequestUs: u.CPUMicrosPerRequest(requests)}
	series, ok := rec.Source(name)
	if !ok {
		return out
	}
	var prev *telemetry.Sample
	for i := range series.Samples {
		s := &series.Samples[i]
		us := lab.UsageSample{T: s.T.Sub(start).Seconds(), RSS: s.RSS}
		if prev != nil {
			if dt := s.T.Sub(prev.T).Seconds(); dt > 0 && s.CPUSeconds >= prev.CPUSeconds {
				us.CPU = (s.CPUSeconds - prev.CPUSeconds) / dt
			}
		}
		out.Samples = append(out.Samples, us)
		prev = s
	}
	return out
}

// eventKinds maps the telemetry adapter's event kinds to the record's.
var eventKinds = map[string]lab.EventKind{
	telemetry.KindOOMKill: lab.EventOOMKill,
	telemetry.KindCrash:   lab.EventCrash,
	telemetry.KindRestart: lab.EventRestart,
}

// backendUsage is a duet half's database usage: the CPU of its own
// backends; memory and the per-sample series stay the cluster's, which both
// halves share.
func backendUsage(cluster lab.Usage, cpu, window time.Duration, requests int64) lab.Usage {
	u := lab.Usage{CPUSeconds: cpu.Seconds(), PeakRSS: cluster.PeakRSS, MeanRSS: cluster.MeanRSS}
	if window > 0 {
		u.CPUUtil = u.CPUSeconds / window.Seconds()
	}
	if requests > 0 {
		u.CPUPerRequestUs = 1e6 * u.CPUSeconds / float64(requests)
	}
	return u
}
