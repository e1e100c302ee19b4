package loadgen

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Run generates the load cfg describes and returns what it measured. The
// warm-up part is sent but not measured. progress (may be nil) is called
// about once a second from another goroutine. Run returns early, with what
// was measured so far, when ctx is cancelled.
//
// A panic in Run or in any of its goroutines (event loops, collector,
// progress) does not crash the program: the run stops and Run returns a
// *PanicError, with the stack kept out of its text.
func Run(ctx context.Context, cfg Config, progress func(Progress)) (res *Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = nil, newPanicError("run", p)
		}
	}()
	if errs := cfg.Validate(); len(errs) > 0 {
		return nil, fmt.Errorf("loadgen: invalid config: %w", errors.Join(errs...))
	}
	r, err := newRun(cfg)
	if err != nil {
		return nil, err
	}
	if cfg.Threads > 0 {
		old := runtime.GOMAXPROCS(cfg.Threads)
		defer runtime.GOMAXPROCS(old)
	}
	if len(cfg.CPUs) > 0 {
		restore, err := pinProcess(cfg.CPUs)
		if err != nil {
			return nil, fmt.Errorf("loadgen: pin to CPUs %v: %w", cfg.CPUs, err)
		}
		defer restore()
	}
	return r.run(ctx, progress)
}

// mix is the compiled Config.Mix: a worker picks a scenario by weight, then
// its requests round-robin. The round-robin position is the run's, shared
// by every worker (as vegeta's targeter is): the open model lends each
// request to whichever in-flight slot is free, and a position per slot
// would start every newly used slot at the first request, so a trial
// whose answers slowed would send the first lines of a targets file far
// more often than the last.
type mix struct {
	cum   []float64 // cumulative weights
	scens [][]*tmpl
	rr    []atomic.Uint64 // round-robin position per scenario
	names string
}

type runner struct {
	cfg     Config
	mix     mix
	dial    func() (net.Conn, error)
	shards  []*shard
	eps     []Request // the requests kept apart (Config.ByRequest), by tmpl.ep
	workers int
	timeout time.Duration

	start, measure, end time.Time    // start of warm-up, of the measured part, scheduled end
	halt                atomic.Bool  // the run was cancelled: no new request may start
	aborted             atomic.Bool  // in-flight requests are being cut off: do not record them
	measuredSent        atomic.Int64 // measured requests started (MaxRequests bound)
	dropped             atomic.Int64 // measured drops
	waited              atomic.Int64 // measured requests that waited for a connection (Open.MaxLate)
	inflight            atomic.Int64
	maxInflight         atomic.Int64
	stoppedEarly        atomic.Bool    // MaxRequests reached
	sleeps              atomic.Int64   // the loops' sleeps with answers left in their sockets (mayDefer)
	sendWG              sync.WaitGroup // one per event loop, done when it stops sending

	// cancel ends the run early (set by run); panicked is the first panic
	// of a load goroutine, which then cancels.
	cancel   context.CancelFunc
	panicMu  sync.Mutex
	panicked *PanicError
}

// PanicError is a panic in the load generator (a bug), returned as Run's
// error. Error says it is an internal error and what panicked; the stack
// is in Stack, for a log or a debug file, never in the text.
type PanicError struct {
	Where string // "event loop", "collector", "connect", "run"
	Value any
	Stack []byte
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("loadgen: internal error (a bug in the load generator): %s panicked: %v", e.Where, e.Value)
}

// PanicStack returns the panicking goroutine's stack (the lab's command
// line writes it to a file).
func (e *PanicError) PanicStack() []byte { return e.Stack }

func newPanicError(where string, p any) *PanicError {
	return &PanicError{Where: where, Value: p, Stack: debug.Stack()}
}

// guard, deferred first in each load goroutine, turns its panic into the
// run's error and stops the run.
func (r *runner) guard(where string) {
	p := recover()
	if p == nil {
		return
	}
	pe := newPanicError(where, p)
	r.panicMu.Lock()
	if r.panicked == nil {
		r.panicked = pe
	}
	r.panicMu.Unlock()
	if r.cancel != nil {
		r.cancel()
	}
}

func (r *runner) panicErr() *PanicError {
	r.panicMu.Lock()
	defer r.panicMu.Unlock()
	return r.panicked
}

func newRun(cfg Config) (*runner, error) {
	host, base, err := cfg.Target.hostAndBase()
	if err != nil {
		return nil, fmt.Errorf("loadgen: %w", err)
	}
	r := &runner{cfg: cfg, workers: cfg.workers(), timeout: cfg.timeout()}
	var total float64
	var names []string
	jwts, keys := newBudget(), newSigner(cfg.JWTSecret, cfg.JWTPrivateKey)
	for _, w := range cfg.Mix {
		var ts []*tmpl
		for i, q := range w.Scenario.Requests {
			t, err := compileBudget(q, host, base, keys, jwts)
			if err != nil {
				return nil, fmt.Errorf("loadgen: scenario %s request %d: %w", w.Scenario.Name, i, err)
			}
			if cfg.ByRequest {
				t.ep = len(r.eps)
				r.eps = append(r.eps, q)
			}
			ts = append(ts, t)
		}
		total += w.Weight
		r.mix.cum = append(r.mix.cum, total)
		r.mix.scens = append(r.mix.scens, ts)
		names = append(names, w.Scenario.Name)
	}
	r.mix.rr = make([]atomic.Uint64, len(r.mix.scens))
	r.mix.names = strings.Join(names, "+")
	d := net.Dialer{Timeout: r.timeout}
	if cfg.Target.UnixSocket != "" {
		path := cfg.Target.UnixSocket
		r.dial = func() (net.Conn, error) { return d.Dial("unix", path) }
	} else {
		addr := hostPort(host)
		r.dial = func() (net.Conn, error) { return d.Dial("tcp", addr) }
	}
	// One shard per event loop (newLoops deals connection i to loop i mod
	// n, newConns its metrics to shard i mod n): a loop records into its
	// own shard, whose lock only the collector's drain takes besides.
	for range r.loops() {
		sh := newShard()
		if cfg.ServerTiming {
			sh.phases = newPhaseHists()
		}
		sh.sameSvc = cfg.Closed != nil
		if len(r.eps) > 0 {
			sh.eps = make([][]epStat, len(r.eps))
		}
		if cfg.Open != nil {
			sh.lag = newHist()
		}
		r.shards = append(r.shards, sh)
	}
	return r, nil
}

func hostPort(host string) string {
	if _, _, err := net.SplitHostPort(host); err == nil {
		return host
	}
	return net.JoinHostPort(strings.Trim(host, "[]"), "80")
}

// run opens the connections, drives the load until the window ends (or
// ctx, or the MaxRequests bound), lets in-flight requests finish and
// returns what was measured.
func (r *runner) run(ctx context.Context, progress func(Progress)) (*Result, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r.cancel = cancel
	conns := r.newConns()
	err := connectAll(r, conns)
	if pe := r.panicErr(); pe != nil {
		closeAll(conns)
		return nil, pe
	}
	if err != nil {
		closeAll(conns)
		return nil, fmt.Errorf("loadgen: connect to %s: %w", r.targetName(), err)
	}
	loops, err := r.newLoops(conns)
	if err != nil {
		closeAll(conns)
		return nil, fmt.Errorf("loadgen: %w", err)
	}
	stopHalt := context.AfterFunc(ctx, func() { r.halt.Store(true) })
	defer stopHalt()
	r.start = time.Now()
	r.measure = r.start.Add(r.cfg.Warmup)
	r.end = r.measure.Add(r.cfg.Duration)

	col := newCollector(r, progress)
	colDone := make(chan struct{})
	go func() {
		defer close(colDone)
		defer r.guard("collector")
		col.loop()
	}()

	loopsDone := r.drive(loops)
	stoppedAt := time.Now()
	byCount := r.stoppedEarly.Load()
	r.drain(ctx, loopsDone, byCount)
	if byCount && r.cfg.Closed != nil {
		stoppedAt = time.Now() // the last counted answers arrived
	}
	col.finish()
	<-colDone

	if pe := r.panicErr(); pe != nil {
		return nil, pe
	}
	measured := stoppedAt.Sub(r.measure)
	if r.cfg.Open != nil && ctx.Err() == nil && !r.stoppedEarly.Load() {
		// The open model measured every request scheduled in the window.
		measured = r.cfg.Duration
	}
	return r.result(col, max(measured, 0)), nil
}

// newConns makes one connection per worker (closed: per connection; open:
// per in-flight slot), its metrics in shard i mod shards.
func (r *runner) newConns() []*conn {
	conns := make([]*conn, r.workers)
	for i := range conns {
		w := &worker{r: r, id: i, sh: r.shards[i%len(r.shards)],
			rng: rand.New(rand.NewPCG(uint64(r.cfg.Seed), uint64(i)))}
		conns[i] = newConn(w, i)
	}
	return conns
}

func closeAll(conns []*conn) {
	for _, c := range conns {
		c.closeFD()
	}
}

// loops is the number of event loops: one per generator thread
// (GOMAXPROCS), at most one per connection.
func (r *runner) loops() int { return max(1, min(r.cfg.threads(), r.workers)) }

// newLoops deals the run's connections (newConns) to r.loops() event
// loops, connection i to loop i mod n.
func (r *runner) newLoops(conns []*conn) ([]*evloop, error) {
	n := r.loops()
	r.sendWG.Add(n)
	loops := make([]*evloop, 0, n)
	for id := range n {
		var mine []*conn
		for i := id; i < len(conns); i += n {
			mine = append(mine, conns[i])
		}
		l, err := newEvloop(r, id, n, mine, r.sendWG.Done)
		if err != nil {
			for _, l := range loops {
				l.p.close()
			}
			return nil, err
		}
		loops = append(loops, l)
	}
	return loops, nil
}

// drive runs the event loops and returns when all have stopped sending (the
// window ended, the MaxRequests bound or a cancel); they may still be
// waiting for answers.
func (r *runner) drive(loops []*evloop) *sync.WaitGroup {
	var done sync.WaitGroup
	for _, l := range loops {
		done.Go(func() {
			defer r.guard("event loop")
			defer l.stopSending() // also after a panic
			l.run()
		})
	}
	r.sendWG.Wait()
	return &done
}

// drain lets in-flight requests finish: an open run's were scheduled in
// the window and are waited for up to the timeout (as are those of a run
// stopped by its request count); a closed run's were cut off (like wrk), as
// are all after a cancel.
func (r *runner) drain(ctx context.Context, loopsDone *sync.WaitGroup, byCount bool) {
	finished := make(chan struct{})
	go func() { loopsDone.Wait(); close(finished) }()
	grace := r.timeout
	if (r.cfg.Closed != nil && !byCount) || ctx.Err() != nil {
		grace = 0
	}
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-finished:
	case <-t.C:
		r.aborted.Store(true) // the loops stop within maxWait, recording nothing more
		<-finished
	}
}

func (r *runner) targetName() string {
	if r.cfg.Target.UnixSocket != "" {
		return "unix:" + r.cfg.Target.UnixSocket
	}
	return r.cfg.Target.URL
}
