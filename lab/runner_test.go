package lab

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// fakeServer records calls; it is a fake for the pure run-loop logic.
type fakeServer struct {
	mu        sync.Mutex
	applied   []string
	restores  int
	failApply map[string]error
	crashOnce map[string]bool // variant -> report a crash event in its next window
	current   string
}

func (f *fakeServer) Describe(context.Context) (Host, TargetInfo, error) {
	return Host{Hostname: "h"}, TargetInfo{Binary: "fake"}, nil
}

func (f *fakeServer) Apply(_ context.Context, v Variant) (Applied, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.applied = append(f.applied, v.Name)
	f.current = v.Name
	if err := f.failApply[v.Name]; err != nil {
		return Applied{}, err
	}
	return Applied{Changes: []Change{{Where: "postgrest", Key: "db-uri", From: "a", To: v.Name}}, ReadyAfter: time.Millisecond}, nil
}

func (f *fakeServer) Watch(context.Context) (Window, error) { return fakeWindow{f}, nil }

func (f *fakeServer) Restore(context.Context) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.restores++
	return nil
}

type fakeWindow struct{ f *fakeServer }

func (w fakeWindow) Stop(_ context.Context, n int64) (Telemetry, error) {
	w.f.mu.Lock()
	defer w.f.mu.Unlock()
	tel := Telemetry{Server: Usage{CPUSeconds: float64(n) * 1e-4, CPUPerRequestUs: 100}}
	if w.f.crashOnce[w.f.current] {
		delete(w.f.crashOnce, w.f.current)
		tel.Events = []Event{{Kind: "oom-kill", Source: "postgrest", Detail: "killed"}}
	}
	return tel, nil
}

type fakeLoader struct {
	block  chan struct{} // when set, Load waits for it or ctx
	calls  int
	errors int64 // failed answers among each load's 1,000
}

func (l *fakeLoader) Load(ctx context.Context, spec LoadSpec) (LoadOutcome, error) {
	l.calls++
	if l.block != nil {
		select {
		case <-l.block:
		case <-ctx.Done():
			return LoadOutcome{}, ctx.Err()
		}
	}
	return LoadOutcome{Stats: LoadStats{Requests: 1000, Errors: l.errors, Rate: 100, Seconds: 10}}, nil
}

func testExperiment() *Experiment {
	e := &Experiment{Name: "t", Scenarios: []string{"GETSingle"},
		Load:     Load{Model: ModelClosed, Connections: 1, Duration: time.Second},
		Trials:   Trials{Min: 2, Max: 4, Order: OrderInterleaved, Alpha: 0.05, Seed: 1},
		Variants: []Variant{{Name: "tcp", Baseline: true}, {Name: "unix"}}}
	return e
}

func TestRunnerInterleavesAndStopsAtMax(t *testing.T) {
	srv, ld := &fakeServer{}, &fakeLoader{}
	run, err := (&Runner{Server: srv, Loader: ld, Decided: FixedRounds}).Run(context.Background(), testExperiment())
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(srv.applied, ","); got != "tcp,unix,tcp,unix,tcp,unix,tcp,unix" {
		t.Fatalf("apply order %s", got)
	}
	if len(run.Trials) != 8 || srv.restores != 1 {
		t.Fatalf("trials %d restores %d", len(run.Trials), srv.restores)
	}
	if len(run.Variants) != 2 || !run.Variants[0].Baseline || len(run.Variants[1].Changes) != 1 {
		t.Fatalf("variants %+v", run.Variants)
	}
}

func TestRunnerStopsWhenDecidedAfterMin(t *testing.T) {
	srv := &fakeServer{}
	calls := 0
	r := &Runner{Server: srv, Loader: &fakeLoader{}, Decided: func(*Run) bool { calls++; return true }}
	run, err := r.Run(context.Background(), testExperiment())
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Trials) != 4 || calls != 1 {
		t.Fatalf("trials %d decided calls %d, want 4 trials (2 rounds) and 1 call", len(run.Trials), calls)
	}
}

// The telemetry window's per-request figures divide by the successful
// answers: 200 failed of 1,000 leave 800, so a server that fails requests
// fast does not read as cheaper per request.
func TestRunnerChargesCPUToSuccessfulAnswers(t *testing.T) {
	run, err := (&Runner{Server: &fakeServer{}, Loader: &fakeLoader{errors: 200}, Decided: FixedRounds}).Run(context.Background(), testExperiment())
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range run.Trials {
		// fakeWindow uses 100 µs of CPU per request it is told of.
		if tr.Server.CPUSeconds != 800*1e-4 || tr.WindowRequests() != 800 {
			t.Fatalf("trial %d: window told of %.0f requests (WindowRequests %d), want the 800 that succeeded", tr.Seq, tr.Server.CPUSeconds/1e-4, tr.WindowRequests())
		}
	}
}

// An interrupt during a trial's load restores the server and marks the run
// interrupted. It runs in a synctest bubble: synctest.Wait returns once
// the run is blocked in the first load, so the interrupt lands there for
// sure, not 20 ms of wall clock after the start, wherever that is.
func TestRunnerRestoresWhenInterrupted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, ld := &fakeServer{}, &fakeLoader{block: make(chan struct{})}
		ctx, cancel := context.WithCancel(context.Background())
		var run *Run
		var err error
		done := make(chan struct{})
		go func() {
			defer close(done)
			run, err = (&Runner{Server: srv, Loader: ld, Decided: FixedRounds}).Run(ctx, testExperiment())
		}()
		synctest.Wait()
		if ld.calls != 1 || len(srv.applied) != 1 {
			t.Errorf("before the interrupt: %d loads, %d applies, want the first trial loading", ld.calls, len(srv.applied))
		}
		cancel()
		<-done
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err %v", err)
		}
		if srv.restores != 1 || run.Interrupted == "" || ld.calls != 1 {
			t.Fatalf("restores %d interrupted %q loads %d", srv.restores, run.Interrupted, ld.calls)
		}
	})
}

func TestRunnerRecordsNotReadyAndGoesOn(t *testing.T) {
	srv := &fakeServer{failApply: map[string]error{"unix": errors.New("no answer on /ready")}}
	run, err := (&Runner{Server: srv, Loader: &fakeLoader{}, Decided: FixedRounds}).Run(context.Background(), testExperiment())
	if err != nil {
		t.Fatal(err)
	}
	failed := 0
	for _, tr := range run.Trials {
		if tr.Error != "" {
			failed++
			if tr.Variant != "unix" || !strings.Contains(tr.Error, "no answer") {
				t.Fatalf("bad failed trial %+v", tr)
			}
		}
	}
	if failed != 4 || len(run.Events) != 4 {
		t.Fatalf("failed %d events %d", failed, len(run.Events))
	}
}

func TestRunnerRepeatsACrashedTrialOnce(t *testing.T) {
	srv := &fakeServer{crashOnce: map[string]bool{"unix": true}}
	run, err := (&Runner{Server: srv, Loader: &fakeLoader{}, Decided: FixedRounds}).Run(context.Background(), testExperiment())
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Trials) != 9 {
		t.Fatalf("trials %d, want 8 + 1 repeat", len(run.Trials))
	}
	if run.Trials[1].Error == "" || run.Trials[2].Error != "" || run.Trials[2].Variant != "unix" {
		t.Fatalf("trial 2 should be the crash, 3 its repeat: %+v %+v", run.Trials[1], run.Trials[2])
	}
	if len(run.Events) != 1 || run.Events[0].Variant != "unix" {
		t.Fatalf("events %+v", run.Events)
	}
}

// failingLoader fails its call number n, as a load against a target that
// died refuses connections.
type failingLoader struct {
	fakeLoader
	n int
}

func (l *failingLoader) Load(ctx context.Context, spec LoadSpec) (LoadOutcome, error) {
	out, err := l.fakeLoader.Load(ctx, spec)
	if l.calls == l.n {
		return LoadOutcome{}, errors.New("connect: connection refused")
	}
	return out, err
}

// A trial whose server died fails for the death, not for what the death
// did to its load.
func TestRunnerTrialFailsForTheDeathNotTheLoad(t *testing.T) {
	srv := &fakeServer{crashOnce: map[string]bool{"unix": true}}
	run, err := (&Runner{Server: srv, Loader: &failingLoader{n: 2}, Decided: FixedRounds}).Run(context.Background(), testExperiment())
	if err != nil {
		t.Fatal(err)
	}
	if tr := run.Trials[1]; tr.Variant != "unix" || tr.Error != "oom-kill: killed" {
		t.Fatalf("trial 2: %q (%s), want the OOM kill as its error", tr.Error, tr.Variant)
	}
}

func TestRandomOrderIsSeededAndAPermutation(t *testing.T) {
	e := testExperiment()
	e.Variants = append(e.Variants, Variant{Name: "c"}, Variant{Name: "d"})
	e.Trials.Order = OrderRandom
	a, b := roundOrder(e, 3), roundOrder(e, 3)
	seen := map[string]bool{}
	for i := range a {
		if a[i].Name != b[i].Name {
			t.Fatal("same seed and round gave different orders")
		}
		seen[a[i].Name] = true
	}
	if len(seen) != 4 {
		t.Fatalf("not a permutation: %v", a)
	}
}

// logLoader and logServer share one log, to check the order of calls.
type logLoader struct{ log *[]string }

func (l logLoader) Load(_ context.Context, spec LoadSpec) (LoadOutcome, error) {
	*l.log = append(*l.log, "load "+spec.Load.Duration.String()+" warmup "+spec.Load.Warmup.String())
	return LoadOutcome{Stats: LoadStats{Requests: 10}}, nil
}

type logServer struct {
	fakeServer
	log *[]string
}

func (s *logServer) Watch(ctx context.Context) (Window, error) {
	*s.log = append(*s.log, "watch")
	return s.fakeServer.Watch(ctx)
}

func TestWarmupRunsBeforeTelemetryStarts(t *testing.T) {
	var log []string
	e := testExperiment()
	e.Variants, e.Trials.Min, e.Trials.Max = e.Variants[:1], 2, 2
	e.Load.Warmup = 2 * time.Second
	r := &Runner{Server: &logServer{log: &log}, Loader: logLoader{&log}, Decided: FixedRounds}
	if _, err := r.Run(context.Background(), e); err != nil {
		t.Fatal(err)
	}
	want := "load 2s warmup 0s,watch,load 1s warmup 0s,load 2s warmup 0s,watch,load 1s warmup 0s"
	if got := strings.Join(log, ","); got != want {
		t.Fatalf("calls:\n got %s\nwant %s", got, want)
	}
}

type cleaningLoader struct {
	fakeLoader
	log *[]string
}

func (c *cleaningLoader) Cleanup(_ context.Context, spec LoadSpec) error {
	*c.log = append(*c.log, "cleanup "+spec.Scenario)
	return nil
}

func TestCleanupRunsAfterTheWindow(t *testing.T) {
	var log []string
	e := testExperiment()
	e.Variants, e.Trials.Min, e.Trials.Max = e.Variants[:1], 2, 2
	srv := &logServer{log: &log}
	r := &Runner{Server: srv, Loader: &cleaningLoader{log: &log}, Decided: FixedRounds}
	if _, err := r.Run(context.Background(), e); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(log, ","); got != "watch,cleanup GETSingle,watch,cleanup GETSingle" {
		t.Fatalf("calls: %s", got)
	}
}

type searchLoader struct{}

func (searchLoader) Load(context.Context, LoadSpec) (LoadOutcome, error) {
	return LoadOutcome{Stats: LoadStats{Requests: 1000, Rate: 500}, Sent: 9000}, nil
}

func TestWindowFiguresArePerRequestSentInTheWindow(t *testing.T) {
	e := testExperiment()
	e.Variants, e.Trials.Min, e.Trials.Max = e.Variants[:1], 2, 2
	run, err := (&Runner{Server: &fakeServer{}, Loader: searchLoader{}, Decided: FixedRounds}).Run(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	// fakeWindow records 1e-4 CPU seconds per request it is told about.
	if got := run.Trials[0].Server.CPUSeconds; got < 0.8999 || got > 0.9001 {
		t.Fatalf("window told %.0f requests, want the 9000 sent, not the 1000 of the best step", got/1e-4)
	}
	// The trial keeps the count, for the figures made later from the
	// window's totals (SQL per variant, GHC allocation per request).
	if got := run.Trials[0].WindowRequests(); got != 9000 || run.Trials[0].Load.Requests != 1000 {
		t.Fatalf("trial's window requests %d (load %d), want 9000 (1000)", got, run.Trials[0].Load.Requests)
	}
}

// A Runner without a stop rule is refused, not silently run to Trials.Max.
func TestRunnerNeedsAStopRule(t *testing.T) {
	_, err := (&Runner{Server: &fakeServer{}, Loader: &fakeLoader{}}).Run(context.Background(), testExperiment())
	if err == nil || !strings.Contains(err.Error(), "no Decided stop rule") {
		t.Fatalf("nil Decided: %v", err)
	}
}

// memTarget is a target whose resident memory stays at the most any load
// since its start needed (a GHC or Go heap keeps what it grew to) and
// starts small again on Apply (which restarts it): a fake for the run
// loop's logic, as Server and Loader at once.
type memTarget struct {
	fakeServer
	resident uint64
	need     map[string]uint64 // scenario -> the RSS its load needs
	loaded   string            // the scenario of the last load
}

const memBase = 20 << 20

func (m *memTarget) Apply(ctx context.Context, v Variant) (Applied, error) {
	m.resident = memBase
	return m.fakeServer.Apply(ctx, v)
}

func (m *memTarget) Watch(context.Context) (Window, error) { return memWindow{m}, nil }

type memWindow struct{ m *memTarget }

func (w memWindow) Stop(context.Context, int64) (Telemetry, error) {
	w.m.resident = max(w.m.resident, w.m.need[w.m.loaded])
	return Telemetry{Server: Usage{PeakRSS: w.m.resident}}, nil
}

func (m *memTarget) Load(_ context.Context, spec LoadSpec) (LoadOutcome, error) {
	m.loaded = spec.Scenario
	return LoadOutcome{Stats: LoadStats{Requests: 1000, Rate: 100, Seconds: 10}}, nil
}

// Each scenario's peak RSS is its own: every trial runs on a target the
// variant was applied to (restarted) just before, so a heavy scenario's
// heap does not stay in the next one's window. Applied once per round, a
// light scenario after a heavy one read the heavy one's peak (a running
// maximum over the round: 66 -> 102 MB over eight scenarios).
func TestEachScenarioPeakRSSIsItsOwn(t *testing.T) {
	for _, order := range []Order{OrderInterleaved, OrderDuet} {
		e := testExperiment()
		e.Scenarios = []string{"GETAllEmbed", "GETSingle", "GETSingleEmbed"}
		e.Trials.Order, e.Load.Connections = order, 2
		need := map[string]uint64{"GETAllEmbed": 102 << 20, "GETSingle": 66 << 20, "GETSingleEmbed": 80 << 20}
		m, twin := &memTarget{need: need}, &memTarget{need: need}
		r := &Runner{Server: m, Loader: m, Decided: FixedRounds}
		if order == OrderDuet {
			r.Duet = &Duet{Halves: [2]Server{m, twin}, Loaders: [2]Loader{m, twin}}
		}
		run, err := r.Run(context.Background(), e)
		if err != nil {
			t.Fatal(err)
		}
		for _, tr := range run.Trials {
			if tr.Error != "" {
				t.Fatalf("%s: trial %d: %s", order, tr.Seq, tr.Error)
			}
			if want := need[tr.Scenario]; tr.Server.PeakRSS != want {
				t.Errorf("%s: trial %d (%s, %s): peak RSS %d MiB, want its own %d MiB", order, tr.Seq, tr.Variant, tr.Scenario, tr.Server.PeakRSS>>20, want>>20)
			}
		}
	}
}
