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

// duetLoader is a fake half's generator: it records the loads it was given
// and, for measured ones, waits until the other half's measured load has
// started too, so the test fails if the runner loads the halves one after
// the other.
type duetLoader struct {
	mu      sync.Mutex
	specs   []LoadSpec
	started chan struct{} // closed by this half's first measured load
	other   *duetLoader
	once    sync.Once
}

func (l *duetLoader) Load(ctx context.Context, spec LoadSpec) (LoadOutcome, error) {
	l.mu.Lock()
	l.specs = append(l.specs, spec)
	l.mu.Unlock()
	if spec.Load.Warmup == 0 && spec.Load.Duration == testDuet().Load.Duration {
		l.once.Do(func() { close(l.started) })
		select {
		case <-l.other.started:
		case <-ctx.Done():
			return LoadOutcome{}, ctx.Err()
		}
	}
	return LoadOutcome{Stats: LoadStats{Requests: 1000, Rate: spec.Load.Rate, Seconds: 1}}, nil
}

func testDuet() *Experiment {
	e := testExperiment()
	e.Trials.Order = OrderDuet
	e.Load = Load{Model: ModelOpen, Rate: 1000, Duration: 1e9, Warmup: 5e8}
	return e
}

func newDuet() (*Duet, [2]*fakeServer, [2]*duetLoader) {
	srv := [2]*fakeServer{{}, {}}
	a, b := &duetLoader{started: make(chan struct{})}, &duetLoader{started: make(chan struct{})}
	a.other, b.other = b, a
	return &Duet{Halves: [2]Server{srv[0], srv[1]}, Loaders: [2]Loader{a, b}}, srv, [2]*duetLoader{a, b}
}

func TestDuetServesBothAtOnceAndSwapsHalves(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, srv, ld := newDuet()
		run, err := (&Runner{Duet: d, Decided: FixedRounds}).Run(context.Background(), testDuet())
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(srv[0].applied, ","); got != "tcp,unix,tcp,unix" {
			t.Errorf("half a applied %s; want tcp,unix,tcp,unix (the baseline on a in odd rounds)", got)
		}
		if got := strings.Join(srv[1].applied, ","); got != "unix,tcp,unix,tcp" {
			t.Errorf("half b applied %s; want unix,tcp,unix,tcp", got)
		}
		if srv[0].restores != 1 || srv[1].restores != 1 {
			t.Errorf("restores %d, %d; want both halves restored once", srv[0].restores, srv[1].restores)
		}
		if len(run.Trials) != 8 {
			t.Fatalf("%d trials; want 8 (4 rounds x 2 halves)", len(run.Trials))
		}
		for i, tr := range run.Trials {
			if tr.Rep != i/2+1 || tr.Half != Halves[i%2] || tr.Error != "" {
				t.Errorf("trial %d: rep %d half %q error %q", i, tr.Rep, tr.Half, tr.Error)
			}
		}
		for _, l := range ld {
			for _, s := range l.specs {
				if s.Load.Rate != 500 {
					t.Errorf("a half's load ran at %v req/s; want 500 (half of 1000)", s.Load.Rate)
				}
			}
			if len(l.specs) != 8 { // 4 rounds x (warm-up + measured)
				t.Errorf("%d loads per half; want 8", len(l.specs))
			}
		}
	})
}

func TestDuetFailedHalfSpoilsThePair(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, srv, _ := newDuet()
		srv[1].failApply = map[string]error{"unix": errors.New("not ready")} // rounds 1 and 3
		run, err := (&Runner{Duet: d, Decided: FixedRounds}).Run(context.Background(), testDuet())
		if err != nil {
			t.Fatal(err)
		}
		for _, tr := range run.Trials {
			bad := tr.Rep%2 == 1
			if (tr.Error != "") != bad {
				t.Errorf("round %d half %s: error %q; want an error in odd rounds only, on both halves", tr.Rep, tr.Half, tr.Error)
			}
		}
	})
}

func TestDuetNeedsTwoHalves(t *testing.T) {
	_, err := (&Runner{Server: &fakeServer{}, Loader: &fakeLoader{}, Decided: FixedRounds}).Run(context.Background(), testDuet())
	if err == nil || !strings.Contains(err.Error(), "twin") {
		t.Fatalf("err = %v; want one saying a duet needs the twin", err)
	}
}

func TestDuetValidation(t *testing.T) {
	e := testDuet()
	e.Variants = append(e.Variants, Variant{Name: "third"})
	e.Variants[1].PostgreSQL = map[string]string{"work_mem": "8MB"}
	e.Load = Load{Model: ModelClosed, Connections: 3, Duration: 1e9}
	msg := errors.Join(e.Validate()...).Error()
	for _, want := range []string{"needs exactly 2", "variant[1].postgresql", "must be even"} {
		if !strings.Contains(msg, want) {
			t.Errorf("validation of a bad duet: %q lacks %q", msg, want)
		}
	}
}

// sleepyLoader takes d of (synctest's) time before each load.
type sleepyLoader struct {
	Loader
	d time.Duration
}

func (l sleepyLoader) Load(ctx context.Context, spec LoadSpec) (LoadOutcome, error) {
	time.Sleep(l.d)
	return l.Loader.Load(ctx, spec)
}

// Each half is reported at its own place ([1/..], [2/..]), and both with
// the same estimate: the halves of a round finish together, so the mean
// per trial is the round's time shared by two, not a whole round after
// the first half and half of it after the second.
func TestDuetProgressCountsTheHalvesTogether(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, _, ld := newDuet()
		d.Loaders = [2]Loader{sleepyLoader{ld[0], time.Second}, sleepyLoader{ld[1], time.Second}}
		clk := newFakeClock()
		log := &positionLog{clk: clk, start: clk.Now()}
		if _, err := (&Runner{Duet: d, Decided: FixedRounds, Progress: log}).Run(context.Background(), testDuet()); err != nil {
			t.Fatal(err)
		}
		var dones []Position
		for _, c := range log.calls {
			if c.what == "done" {
				dones = append(dones, c.pos)
			}
		}
		if len(dones) != 8 {
			t.Fatalf("%d trials done; want 8", len(dones))
		}
		for i, p := range dones {
			if p.Seq != i+1 {
				t.Errorf("done #%d reported at [%d/..]; want [%d/..]", i+1, p.Seq, i+1)
			}
			if i%2 == 1 && p.Remaining != dones[i-1].Remaining {
				t.Errorf("round %d: the halves said %v and %v left; want one estimate", i/2+1, dones[i-1].Remaining, p.Remaining)
			}
		}
		// A round is 2s (warm-up and load, 1s each), 1s per trial; after
		// round 1 the estimate runs to min (2 rounds, 4 trials), after
		// round 2 to max (4 rounds).
		for i, want := range []time.Duration{2 * time.Second, 4 * time.Second, 2 * time.Second, 0} {
			if r := dones[2*i+1].Remaining; r != want {
				t.Errorf("after round %d: %v left; want %v", i+1, r, want)
			}
		}
	})
}
