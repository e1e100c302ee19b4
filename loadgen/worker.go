package loadgen

import (
	"math/rand/v2"
	"time"
)

// worker owns one connection and sends one request at a time.
type worker struct {
	r   *runner
	id  int
	sh  *shard
	c   *client
	rng *rand.Rand
	rr  []int // round-robin position per scenario
	buf []byte
	bod []byte
	// phases is the scratch for an answer's Server-Timing phases.
	phases [NumPhases]int64
	// due hands the open model's worker its next request's intended
	// time (offset from the start); closed when sending stops.
	due chan int64
}

// next renders the next request of the mix.
func (w *worker) next() (*tmpl, []byte) {
	m := &w.r.mix
	i := 0
	if len(m.cum) > 1 {
		u := w.rng.Float64() * m.cum[len(m.cum)-1]
		for i < len(m.cum)-1 && u >= m.cum[i] {
			i++
		}
	}
	reqs := m.scens[i]
	t := reqs[w.rr[i]%len(reqs)]
	w.rr[i]++
	return t, t.render(&w.buf, &w.bod, w.rng)
}

// one sends a request intended to start at intended and records it. In the
// closed model intended is now (the send time).
func (w *worker) one(intended time.Time, measured, closed bool) errKind {
	t, req := w.next()
	start := intended
	if !closed {
		start = time.Now()
	}
	in0 := w.c.in
	status, out, kind := w.c.do(req, t.isHead, start)
	end := time.Now()
	if w.r.aborted.Load() {
		return kind
	}
	lat, svc, lag := end.Sub(intended), end.Sub(start), start.Sub(intended)
	if kind != errNone {
		lat = -1
	} else if !t.accepts(status) {
		kind = errStatus
	}
	w.sh.record(measured, status, kind, lat, svc, lag, w.c.in-in0, out)
	if measured && t.ep >= 0 {
		w.sh.recordEndpoint(t.ep, status, kind, lat)
	}
	if measured && kind == errNone && w.sh.phases != nil {
		if v := w.c.resp.Header.Peek("Server-Timing"); len(v) > 0 && parseServerTiming(v, &w.phases) {
			w.sh.recordPhases(&w.phases)
		}
	}
	return kind
}

func (w *worker) openLoop(idle *idleWorkers) {
	r := w.r
	for at := range w.due {
		if !r.aborted.Load() {
			w.one(r.start.Add(time.Duration(at)), at >= int64(r.cfg.Warmup), false)
		}
		r.inflight.Add(-1)
		idle.push(w)
	}
}

func (w *worker) closedLoop() {
	r := w.r
	think := r.cfg.Closed.Think
	maxReq := r.cfg.MaxRequests
	var timer *time.Timer
	for {
		select {
		case <-r.stop:
			return
		default:
		}
		now := time.Now()
		if !now.Before(r.end) {
			return
		}
		measured := !now.Before(r.measure)
		if measured && maxReq > 0 && r.measuredSent.Add(1) > maxReq {
			r.reachMax()
			return
		}
		kind := w.one(now, measured, true)
		pause := think
		if kind == errConnect && pause < 10*time.Millisecond {
			pause = 10 * time.Millisecond // do not spin on a refused connect
		}
		if pause > 0 {
			if timer == nil {
				timer = time.NewTimer(pause)
			} else {
				timer.Reset(pause)
			}
			select {
			case <-r.stop:
				timer.Stop()
				return
			case <-timer.C:
			}
		}
	}
}

// accepts reports whether status is the answer the request expects.
func (t *tmpl) accepts(status int) bool {
	switch t.expect {
	case 0:
		return status >= 200 && status <= 299
	case ExpectNoServerError:
		return status < 500
	}
	return status == t.expect
}
