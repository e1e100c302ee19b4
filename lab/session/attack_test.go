package session_test

import (
	"bytes"
	"context"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/configs"
	"github.com/pgrst-lab/pgrst-lab/host/reconcile"
	"github.com/pgrst-lab/pgrst-lab/host/stack"
	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/session"
	"github.com/pgrst-lab/pgrst-lab/loadgen"
	"github.com/pgrst-lab/pgrst-lab/loadgen/trial"
	"github.com/pgrst-lab/pgrst-lab/systemd"
)

// panicLoader is the real loader until the target's config holds the
// second variant's db-pool = 3; then it panics, as a load generator bug
// (once reachable with {rand 0 9223372036854775807}) did mid-run: in Load
// itself (inGenerator false), or inside the real load generator, in one of
// its goroutines (the progress callback its collector calls).
type panicLoader struct {
	real        lab.Loader
	config      string
	inGenerator bool
	loads       int
}

func (p *panicLoader) Load(ctx context.Context, spec lab.LoadSpec) (lab.LoadOutcome, error) {
	if b, _ := os.ReadFile(p.config); bytes.Contains(b, []byte("db-pool = 3")) {
		if !p.inGenerator {
			panic("injected loader panic with db-pool = 3 applied")
		}
		spec.Progress = func(lab.LoadProgress) { panic("injected panic in a load generator goroutine with db-pool = 3 applied") }
	}
	p.loads++
	return p.real.Load(ctx, spec)
}

// Finding 8 (round 3), r3-8-no-panic-restores: a run whose loader panics
// returns an internal error instead of crashing the driver, and the
// target's config is back to the original with no pending journal entry,
// on a real stack under the direct supervisor and the systemd user
// manager, and with the real PostgREST ($LAB_POSTGREST).
func TestAttackExperimentFileRun(t *testing.T) {
	if _, err := labtest.BinDir(); err != nil {
		labtest.Need(t, "PostgreSQL: %v", err)
	}
	for _, sup := range []systemd.Mode{systemd.ModeDirect, systemd.ModeSystemd} {
		t.Run(string(sup), func(t *testing.T) { newRig(t, sup, "").cases(t) })
	}
	t.Run("direct-postgrest", func(t *testing.T) {
		r := newRig(t, systemd.ModeDirect, labtest.PostgREST(t))
		if r.st.Reference {
			t.Fatal("the stack runs postgrest-mini, not $LAB_POSTGREST")
		}
		r.cases(t)
	})
}

func (r *rig) cases(t *testing.T) {
	for _, inGenerator := range []bool{false, true} {
		name := map[bool]string{false: "loader", true: "generator-goroutine"}[inGenerator]
		t.Run("r3-8-no-panic-restores/"+name, func(t *testing.T) { r.noPanicRestores(t, inGenerator) })
	}
}

// rig is a real stack with the real server side over it.
type rig struct {
	st       stack.Status
	srv      *reconcile.Server
	original []byte
}

// newRig brings up a stack under sup with the target postgrest ("" =
// the default), taken down at the end.
func newRig(t *testing.T, sup systemd.Mode, postgrest string) *rig {
	t.Helper()
	if sup == systemd.ModeSystemd {
		labtest.RequireSystemd(t)
	}
	dir := labtest.StateDir(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	s, err := stack.Up(ctx, stack.Options{Dir: dir, Supervisor: sup, Postgrest: postgrest})
	if err != nil {
		t.Fatalf("stack up: %v", err)
	}
	t.Cleanup(func() {
		s.Close()
		if s, err := stack.Open(dir); err == nil {
			_ = s.Down(context.Background(), true)
			s.Close()
		}
	})
	st, err := s.Status(ctx)
	if err != nil || st.Target == nil {
		t.Fatalf("status: %+v %v", st, err)
	}
	original, err := os.ReadFile(st.Config)
	if err != nil {
		t.Fatal(err)
	}
	spec := s.TargetSpec()
	srv, err := reconcile.New(ctx, reconcile.Config{Ctl: st.Controller, StateDir: st.Dir, Config: st.Config, TargetUnit: st.Target.Name,
		TargetSpec: &spec, TargetUser: st.TargetUser, PGUnit: st.Postgres.Name, PG: configs.PGAddr{Host: st.PGHost, Port: st.PGPort, SocketDir: st.PGSocketDir},
		AdminURI: st.AdminURI, URL: st.URL, AdminURL: st.AdminURL, Binary: st.Binary, Reference: st.Reference, Logf: t.Logf})
	if err != nil {
		t.Fatalf("host.New: %v", err)
	}
	t.Cleanup(srv.Close)
	return &rig{st: st, srv: srv, original: original}
}

func (r *rig) noPanicRestores(t *testing.T, inGenerator bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	st, original := r.st, r.original
	e := &lab.Experiment{Name: "panic", Scenarios: []string{"root"},
		Custom: []lab.Scenario{{Name: "root", Path: "/"}},
		Load:   lab.Load{Connections: 1, Duration: 300 * time.Millisecond, Warmup: 100 * time.Millisecond},
		Trials: lab.Trials{Min: 2, Max: 2, Interference: 1},
		Variants: []lab.Variant{
			{Name: "five", Baseline: true, PostgREST: map[string]string{"db-pool": "5"}},
			{Name: "three", PostgREST: map[string]string{"db-pool": "3"}},
		}}
	e.Defaults()
	if err := session.Validate(e, trial.CheckRequests); err != nil {
		t.Fatal(err)
	}
	pl := &panicLoader{real: &trial.Loader{Target: loadgen.Target{URL: st.URL}}, config: st.Config, inGenerator: inGenerator}
	var (
		res *session.Result
		err error
	)
	func() {
		defer func() {
			if p := recover(); p != nil {
				t.Fatalf("session.Run panicked: %v", p)
			}
		}()
		res, err = session.Run(ctx, session.Options{Experiment: e, Server: r.srv, Loader: pl, Results: t.TempDir()})
	}()
	if err == nil || !strings.Contains(err.Error(), "internal error") {
		t.Fatalf("want an internal error, got %v", err)
	}
	if strings.Contains(err.Error(), "runtime/debug.Stack") || regexp.MustCompile(`goroutine [0-9]+ \[`).MatchString(err.Error()) {
		t.Fatalf("the error shows the stack trace: %v", err)
	}
	if pl.loads == 0 {
		t.Fatal("the first variant never ran a real load")
	}
	if res == nil || res.Run.Interrupted == "" || res.Dir == "" {
		t.Fatalf("the interrupted run was not recorded: %+v", res)
	}
	if b, _ := os.ReadFile(st.Config); !bytes.Equal(b, original) {
		t.Fatalf("the target's config is not the original after the panic:\n%s", b)
	}
	if len(lab.PanicStack(err)) == 0 {
		t.Fatalf("no stack kept with the internal error %v", err)
	}
	j, err := configs.OpenJournal(st.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if p := j.Pending(); len(p) > 0 {
		t.Fatalf("pending journal entries after the run: %+v", p)
	}
}
