package agent

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// fakeServer is a lab.Server that records calls, for tests of the protocol.
type fakeServer struct {
	mu       sync.Mutex
	applied  []string
	restores atomic.Int32
	watches  atomic.Int32
	stops    atomic.Int32
	applyFor time.Duration // Apply takes this long
	failNext string
	// restoreFails is how many Restore calls fail before one succeeds.
	restoreFails atomic.Int32
	restoredAt   []time.Time // when each Restore was called (under mu)
}

func (f *fakeServer) Describe(ctx context.Context) (lab.Host, lab.TargetInfo, error) {
	return lab.Host{Hostname: "fake", CPUs: 2}, lab.TargetInfo{Binary: "postgrest", URL: "http://127.0.0.1:3000"}, nil
}

func (f *fakeServer) Apply(ctx context.Context, v lab.Variant) (lab.Applied, error) {
	if f.applyFor > 0 {
		time.Sleep(f.applyFor)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.applied = append(f.applied, v.Name)
	if f.failNext != "" {
		msg := f.failNext
		f.failNext = ""
		return lab.Applied{Changes: []lab.Change{{Where: "postgrest", Key: "db-pool", To: "3"}}}, errors.New(msg)
	}
	return lab.Applied{Changes: []lab.Change{{Where: "postgrest", Key: "db-pool", From: "10", To: "3"}}, ReadyAfter: 42 * time.Millisecond}, nil
}

func (f *fakeServer) applies() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.applied...)
}

// restoreGaps are the times between successive Restore calls.
func (f *fakeServer) restoreGaps() []time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	var gaps []time.Duration
	for i := 1; i < len(f.restoredAt); i++ {
		gaps = append(gaps, f.restoredAt[i].Sub(f.restoredAt[i-1]))
	}
	return gaps
}

func (f *fakeServer) Watch(ctx context.Context) (lab.Window, error) {
	f.watches.Add(1)
	return &fakeWindow{f: f, start: time.Now()}, nil
}

func (f *fakeServer) Restore(ctx context.Context) error {
	f.mu.Lock()
	f.restoredAt = append(f.restoredAt, time.Now())
	f.mu.Unlock()
	f.restores.Add(1)
	if f.restoreFails.Add(-1) >= 0 {
		return errors.New("restart lab-postgres.service: failed\nlast lines of its log:\n    FATAL: could not map anonymous shared memory")
	}
	return nil
}

type fakeWindow struct {
	f     *fakeServer
	start time.Time
}

func (w *fakeWindow) Stop(ctx context.Context, requests int64) (lab.Telemetry, error) {
	w.f.stops.Add(1)
	return lab.Telemetry{
		Server: lab.Usage{CPUSeconds: 1.5, Samples: []lab.UsageSample{{T: 0.1, CPU: 1}, {T: 0.2, CPU: 1}}},
		DB:     lab.DBStats{Rollbacks: requests},
		Events: []lab.Event{{T: w.start, Kind: "restart", Source: "postgrest"}},
	}, nil
}
