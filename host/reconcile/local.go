package reconcile

import (
	"context"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pgrst-lab/pgrst-lab/configs"
	"github.com/pgrst-lab/pgrst-lab/host/telemetry"
	"github.com/pgrst-lab/pgrst-lab/lab/capability"
	"github.com/pgrst-lab/pgrst-lab/systemd"
)

// Config says what the local server side may touch. It comes from the
// local stack's status or, for an existing server, from the experiment's
// [target] table; never from a request.
type Config struct {
	Ctl        systemd.Controller
	StateDir   string            // where the journal lives
	Config     string            // PostgREST config file
	TargetUnit string            // PostgREST unit
	TargetSpec *systemd.UnitSpec // its spec, when the lab owns it (binary swaps); nil otherwise
	// TargetUser runs a target the lab created (TargetSpec): a variant's
	// binary it cannot reach is copied where it can, and the GHC
	// statistics file is its. "" = the lab's own user.
	TargetUser string
	PGUnit     string         // PostgreSQL unit ("" = none to restart)
	PG         configs.PGAddr // PostgreSQL addresses, for tcp/unix db-uri
	AdminURI   string         // superuser connection for settings and counters
	URL        string         // target API URL
	AdminURL   string         // target admin server ("" = probe GET / on URL)
	Binary     string
	Reference  bool
	// AllowUnknownKeys lets variants set keys the catalogue does not know.
	AllowUnknownKeys bool
	// Profile records a CPU profile (perf) and, for a Haskell target the
	// lab owns, GHC runtime statistics (+RTS -S) in every window.
	Profile bool
	// ApplicationName, when set, is written into every db-uri the target
	// gets (application_name), and the window's database figures are then
	// those of the backends that carry it: one half of a duet, whose two
	// targets share one PostgreSQL.
	ApplicationName string
	// ReadyTimeout bounds each readiness gate (default 60 s).
	ReadyTimeout time.Duration
	Logf         func(format string, args ...any)
}

// Server is the server side on this machine: it implements lab.Server with
// the configs journal, a systemd.Controller and the telemetry sampler.
type Server struct {
	cfg      Config
	journal  *configs.Journal
	original []byte // the PostgREST config as found, before any variant
	secrets  capability.Secrets
	watcher  *telemetry.Watcher
	lock     *stateLock // held from New to Close

	mu  sync.Mutex
	cur applied // what is in place: see Apply

	deaths deaths // where the next window's events and the target's log begin
}

// New locks the state directory (one agent or run at a time), opens
// the journal, restores what an interrupted run left behind (and says so),
// and starts watching for OOM kills and crashes.
func New(ctx context.Context, cfg Config) (l *Server, err error) {
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	if cfg.ReadyTimeout == 0 {
		cfg.ReadyTimeout = 60 * time.Second
	}
	lock, err := lockState(cfg.StateDir)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			lock.release()
		}
	}()
	j, err := configs.OpenJournal(cfg.StateDir)
	if err != nil {
		return nil, err
	}
	l = &Server{cfg: cfg, journal: j, lock: lock}
	l.watcher = telemetry.NewWatcher(l.watchTargets()...)
	if err := l.Recover(ctx); err != nil {
		return nil, err
	}
	if l.original, err = os.ReadFile(cfg.Config); err != nil {
		return nil, fmt.Errorf("read target config: %w", err)
	}
	l.learnOriginal()
	l.cur = l.originalApplied()
	if err := l.targetNotRoot(ctx); err != nil {
		return nil, err
	}
	if err := l.watcher.Start(ctx); err != nil {
		return nil, err
	}
	l.deaths.since(len(l.watcher.Events()), l.logMark(ctx))
	return l, nil
}

// Close stops the crash/OOM watcher and releases the state directory.
func (l *Server) Close() {
	l.watcher.Stop()
	l.lock.release()
}

func (l *Server) watchTargets() []telemetry.Target {
	state := func(unit string) func(ctx context.Context) (int, int, error) {
		return func(ctx context.Context) (int, int, error) {
			p, err := l.cfg.Ctl.Properties(ctx, unit)
			return p.MainPID, p.NRestarts, err
		}
	}
	ts := []telemetry.Target{{Source: "postgrest", ControlGroup: l.cgroup(l.cfg.TargetUnit), State: state(l.cfg.TargetUnit)}}
	if l.cfg.PGUnit != "" {
		ts = append(ts, telemetry.Target{Source: "postgresql", ControlGroup: l.cgroup(l.cfg.PGUnit), State: state(l.cfg.PGUnit)})
	}
	return ts
}

func (l *Server) cgroup(unit string) string {
	p, err := l.cfg.Ctl.Properties(context.Background(), unit)
	if err != nil {
		return ""
	}
	return p.ControlGroup
}

// connect opens a superuser connection to PostgreSQL. Its search_path is
// pg_catalog, public (where pg_stat_statements lives), pg_temp, whatever
// the cluster's default says: a variant may set search_path (where an
// agent's config lists it), and the lab's superuser must not resolve a
// name into a schema someone else put first (CVE-2018-1058's lesson).
func (l *Server) connect(ctx context.Context) (*pgx.Conn, error) {
	cfg, err := pgx.ParseConfig(l.cfg.AdminURI)
	if err != nil {
		return nil, fmt.Errorf("connect to PostgreSQL as superuser: %s", l.secrets.RedactText(err.Error()))
	}
	cfg.RuntimeParams["search_path"] = "pg_catalog, public, pg_temp"
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("connect to PostgreSQL as superuser: %w", err)
	}
	return conn, nil
}

// restartTarget restarts PostgREST and gates on readiness. The watcher is
// told, so the restart is not reported as a crash.
func (l *Server) restartTarget(ctx context.Context) (time.Duration, error) {
	done := l.watcher.Expect("postgrest")
	// What happened before the restart is no window's, and the new
	// process's output follows the log's last line now. The watcher takes
	// the new process as its baseline at once: a death right after (in a
	// warm-up) is then seen as one.
	mark := l.logMark(ctx)
	defer func() {
		done()
		l.watcher.Flush(ctx)
		l.deaths.since(len(l.watcher.Events()), mark)
	}()
	if spec := l.cfg.TargetSpec; spec != nil && spec.LogFile != "" {
		// systemd reopens the log by name at each start, following links:
		// leave it a plain file of the lab's first (systemd.OpenPrivateLog).
		f, err := systemd.OpenPrivateLog(spec.LogFile)
		if err != nil {
			return 0, fmt.Errorf("restart %s: log file: %w", l.cfg.TargetUnit, err)
		}
		f.Close()
	}
	start := time.Now()
	if err := l.cfg.Ctl.Restart(ctx, l.cfg.TargetUnit); err != nil {
		return 0, err
	}
	p := systemd.Probe{AdminURL: l.cfg.AdminURL, Timeout: l.cfg.ReadyTimeout, Controller: l.cfg.Ctl, Unit: l.cfg.TargetUnit}
	if p.AdminURL == "" {
		p.URL = l.cfg.URL
	}
	if _, err := systemd.WaitReady(ctx, p); err != nil {
		return 0, err
	}
	d := time.Since(start)
	return d, l.targetNotRoot(ctx)
}

// restartPG restarts PostgreSQL and waits until it accepts connections.
func (l *Server) restartPG(ctx context.Context) error {
	if l.cfg.PGUnit == "" {
		return fmt.Errorf("a PostgreSQL setting needs a restart, but no PostgreSQL unit is known (set target.pg_unit)")
	}
	done := l.watcher.Expect("postgresql")
	defer done()
	if err := l.cfg.Ctl.Restart(ctx, l.cfg.PGUnit); err != nil {
		return err
	}
	deadline := time.Now().Add(l.cfg.ReadyTimeout)
	for {
		conn, err := l.connect(ctx)
		if err == nil {
			conn.Close(ctx)
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("PostgreSQL not ready after restart: %w", err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}
