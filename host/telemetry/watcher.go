package telemetry

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"
)

// Target is a service the Watcher watches.
type Target struct {
	Source string
	// ControlGroup matches kernel OOM records to the service and locates
	// its oom_kill counter; "" under direct supervision.
	ControlGroup string
	// State returns the service's main PID (0 when not running) and its
	// restart count (systemd's MainPID and NRestarts, or a direct
	// supervisor's own figures). nil watches OOM kills only.
	State func(ctx context.Context) (mainPID, nRestarts int, err error)
}

// Watcher records OOM kills, crashes and unexpected restarts of its
// targets, each with the load context set by SetContext.
type Watcher struct {
	// Interval is how often State and the OOM counters are polled (100 ms).
	Interval time.Duration
	// RestartGrace is how long a vanished main process may take to be
	// restarted by the manager before it counts as a crash (5 s; set it
	// above the unit's RestartSec).
	RestartGrace time.Duration
	// Notify, when set, is called with each event as it is recorded (with
	// the watcher's lock held: it must not call the Watcher).
	Notify func(Event)

	fs       FS
	kmsgPath string
	targets  []Target

	mu      sync.Mutex
	events  []Event
	context map[string]string
	states  []targetState
	kmsgErr error
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	kmsg    *KmsgReader
}

type targetState struct {
	known     bool
	pid       int
	restarts  int
	suspended int
	gonePID   int       // main process seen vanishing, not yet restarted
	goneAt    time.Time // when it was seen gone
	crashed   bool      // its crash was reported (Flush): a restart that follows is the same death
	oom       uint64
	oomKnown  bool
	lastErr   string
}

// NewWatcher returns a watcher for the targets; call Start.
func NewWatcher(targets ...Target) *Watcher {
	return &Watcher{Interval: 100 * time.Millisecond, RestartGrace: 5 * time.Second, fs: DefaultFS,
		kmsgPath: "/dev/kmsg", targets: targets, states: make([]targetState, len(targets))}
}

// SetContext sets the load context (e.g. variant, trial, rate) attached to
// events from now on.
func (w *Watcher) SetContext(c map[string]string) {
	w.mu.Lock()
	w.context = maps.Clone(c)
	w.mu.Unlock()
}

// KmsgErr says why the kernel log is not followed (nil when it is). The
// watcher then detects OOM kills from the cgroup counters only, without PID.
func (w *Watcher) KmsgErr() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.kmsgErr
}

// Start takes the baseline of every target and watches until Stop or the
// end of ctx. Not being able to read the kernel log is not an error (see
// KmsgErr).
func (w *Watcher) Start(ctx context.Context) error {
	for i, t := range w.targets {
		if t.Source == "" {
			return fmt.Errorf("watcher: target %d has no Source name", i)
		}
	}
	ctx, w.cancel = context.WithCancel(ctx)
	k, err := openKmsg(w.kmsgPath)
	w.mu.Lock()
	w.kmsg, w.kmsgErr = k, err
	w.mu.Unlock()
	w.poll(ctx) // baseline
	if k != nil {
		w.wg.Add(1)
		go w.followKmsg(ctx, k)
	}
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		t := time.NewTicker(w.Interval)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				w.poll(ctx)
			}
		}
	}()
	return nil
}

// Expect announces a deliberate restart or stop of source (by the lab
// itself): changes of its main PID and restart count are not reported until
// done is called, which takes a new baseline.
func (w *Watcher) Expect(source string) (done func()) {
	w.mu.Lock()
	idx := []int{}
	for i, t := range w.targets {
		if t.Source == source {
			w.states[i].suspended++
			idx = append(idx, i)
		}
	}
	w.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			w.mu.Lock()
			for _, i := range idx {
				w.states[i].suspended--
				w.states[i].known = false // re-baseline on the next poll
				w.states[i].gonePID = 0
				w.states[i].crashed = false
			}
			w.mu.Unlock()
		})
	}
}

// Events returns the events recorded so far.
func (w *Watcher) Events() []Event {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.events)
}

// Flush polls once and reports, at once, every main process seen gone
// and not yet restarted as a crash, without waiting for RestartGrace: at
// the end of a trial's window a process that is gone died in it, whatever
// its manager does next (a restart that follows is not reported again).
func (w *Watcher) Flush(ctx context.Context) {
	w.poll(ctx)
	w.mu.Lock()
	for i := range w.states {
		w.flushCrashLocked(i, time.Time{})
	}
	w.mu.Unlock()
}

// Stop polls once more, stops watching, reports main processes that
// vanished and were not restarted as crashes, and returns all events.
func (w *Watcher) Stop() []Event {
	w.poll(context.Background())
	if w.cancel != nil {
		w.cancel()
		w.mu.Lock()
		k := w.kmsg
		w.mu.Unlock()
		if k != nil {
			_ = k.Close()
		}
		w.wg.Wait()
	}
	w.mu.Lock()
	for i := range w.states {
		w.flushCrashLocked(i, time.Time{})
	}
	w.mu.Unlock()
	return w.Events()
}

func (w *Watcher) addLocked(e Event) {
	e.Context = maps.Clone(w.context)
	w.events = append(w.events, e)
	if w.Notify != nil {
		w.Notify(e)
	}
}

// poll reads every target's state and OOM counter once.
func (w *Watcher) poll(ctx context.Context) {
	for i, t := range w.targets {
		now := time.Now()
		var pid, restarts int
		var stErr error
		if t.State != nil {
			pid, restarts, stErr = t.State(ctx)
		}
		var oom uint64
		var oomOK bool
		if t.ControlGroup != "" {
			oom, oomOK, _ = w.fs.OOMKills(t.ControlGroup)
		}
		w.mu.Lock()
		st := &w.states[i]
		if t.State != nil && stErr == nil {
			w.stateLocked(i, now, pid, restarts)
		} else if stErr != nil {
			st.lastErr = stErr.Error()
		}
		w.oomCounterLocked(i, now, oom, oomOK)
		w.mu.Unlock()
	}
}
