package telemetry

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"
)

// DefaultInterval is the sampling interval when none is given (10 Hz).
const DefaultInterval = 100 * time.Millisecond

// Sampler samples its sources and the machine at a fixed interval from
// Start until Stop. It is safe for concurrent use.
type Sampler struct {
	interval time.Duration
	fs       FS
	cols     []*collector
	share    float64 // budget for per-process reads, of one core
	budget   *budget

	mu      sync.Mutex
	rec     Recording
	started bool
	cancel  context.CancelFunc
	done    chan struct{}
}

// NewSampler returns a sampler for the sources; interval <= 0 means
// DefaultInterval.
func NewSampler(interval time.Duration, sources ...Source) *Sampler {
	if interval <= 0 {
		interval = DefaultInterval
	}
	s := &Sampler{interval: interval, fs: DefaultFS, share: DefaultBudget}
	s.rec.Interval = interval
	for _, src := range sources {
		s.rec.Series = append(s.rec.Series, Series{Source: src})
	}
	return s
}

// WithFS makes the sampler read procfs and cgroups under fsys (fixtures).
// Call it before Start.
func (s *Sampler) WithFS(fsys FS) *Sampler {
	s.fs = fsys
	return s
}

// WithBudget sets the share of one core (e.g. 0.01) that reading
// per-process details may cost; they are then read every tick or every
// few ticks (see Sample.Detail). 0 reads them on every tick whatever the
// cost. Call it before Start.
func (s *Sampler) WithBudget(share float64) *Sampler {
	s.share = share
	return s
}

// Start validates the sources, takes a first sample and samples in the
// background until Stop or until ctx ends.
func (s *Sampler) Start(ctx context.Context) error {
	var errs []error
	for _, se := range s.rec.Series {
		errs = append(errs, se.Source.Validate()...)
	}
	if len(s.rec.Series) == 0 {
		errs = append(errs, errors.New("no sources"))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("telemetry sampler: %w", err)
	}
	s.mu.Lock()
	if s.started {
		s.mu.Unlock()
		return errors.New("telemetry sampler: already started")
	}
	s.started = true
	s.cols = s.cols[:0]
	for _, se := range s.rec.Series {
		s.cols = append(s.cols, newCollector(s.fs, se.Source))
	}
	ctx, s.cancel = context.WithCancel(ctx)
	s.done = make(chan struct{})
	s.rec.Start = time.Now()
	s.rec.Budget = s.share
	s.budget = newBudget(s.share, s.interval)
	s.mu.Unlock()

	s.tick(ctx, true)
	go s.run(ctx)
	return nil
}

func (s *Sampler) run(ctx context.Context) {
	defer close(s.done)
	// On its own thread, RUSAGE_THREAD measures what the reads cost.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t := time.NewTicker(s.interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			detail := s.budget.detail()
			cpu0, ok := threadCPU()
			wall0 := time.Now()
			s.tick(ctx, detail)
			if detail {
				if cpu1, ok1 := threadCPU(); ok && ok1 {
					s.budget.observe(cpu1 - cpu0)
				} else {
					s.budget.observe(time.Since(wall0))
				}
			}
		}
	}
}

// tick takes one sample of every source and of the machine. Reading is
// done outside the lock; only the appends hold it.
func (s *Sampler) tick(ctx context.Context, detail bool) {
	now := time.Now()
	samples := make([]Sample, len(s.cols))
	errs := make([]error, len(s.cols))
	for i, c := range s.cols {
		samples[i], errs[i] = c.collect(now, detail)
	}
	m, merr := s.fs.readMachine(ctx)
	m.T = now

	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.cols {
		se := &s.rec.Series[i]
		se.CPUFrom = s.cols[i].cpuFrom()
		se.DetailEvery = s.budget.every
		if errs[i] != nil {
			se.Errors++
			se.LastErr = errs[i].Error()
			continue
		}
		se.Samples = append(se.Samples, samples[i])
	}
	if merr == nil {
		s.rec.Machine = append(s.rec.Machine, m)
	} else {
		s.rec.MachineErr = merr.Error()
	}
}

// Mark records a labelled instant (e.g. "trial-3 start") and returns it.
// Recording.Window(label) runs from a mark to the next one.
func (s *Sampler) Mark(label string) time.Time {
	now := time.Now()
	s.mu.Lock()
	s.rec.Marks = append(s.rec.Marks, Mark{Label: label, T: now})
	s.mu.Unlock()
	return now
}

// Snapshot returns a copy of what has been recorded so far.
func (s *Sampler) Snapshot() Recording {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.rec.clone()
	r.End = time.Now()
	return r
}

// Stop takes a last sample, stops sampling and returns the recording.
func (s *Sampler) Stop() Recording {
	s.mu.Lock()
	started := s.started
	s.mu.Unlock()
	if !started {
		return s.Snapshot()
	}
	s.cancel()
	<-s.done
	s.tick(context.Background(), true)
	s.mu.Lock()
	s.started = false
	s.rec.End = time.Now()
	r := s.rec.clone()
	s.mu.Unlock()
	return r
}
