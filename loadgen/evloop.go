package loadgen

import (
	"bufio"
	"errors"
	"runtime"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// sendAhead is how early the open model may send a request when the loop
// is awake anyway (for an answer, or for a request due just before),
// instead of waking up again for it: one interval of this loop's schedule,
// within [minSendAhead, maxSendAhead]. The schedule keeps its exact rate
// and a request is never sent more than a millisecond early (wrk2's timers
// have the same granularity); a request sent ahead counts its latency from
// its send, so nothing is hidden (a late request still counts from its
// intended time). Fewer wake-ups per request are most of the generator's
// CPU below saturation.
func sendAhead(s openSchedule) int64 {
	return min(maxSendAhead, max(minSendAhead, int64(float64(s.step)*1e9/s.rate)))
}

const (
	minSendAhead = int64(250 * time.Microsecond)
	maxSendAhead = int64(time.Millisecond)
)

// maxWait bounds one epoll_wait, so that the loop notices a stop, an abort
// or a cancel within it and yields to the program's other goroutines.
const maxWait = int64(5 * time.Millisecond)

// yieldEvery is how often the loop yields its P (runtime.Gosched) to the
// program's other goroutines (progress, collector, signals): at most once
// per wait and at most this often, so they wait for it no longer than a
// wait (maxWait). A yield on every wake-up cost about a microsecond per
// request against real PostgREST (the scheduler's code and data fall out
// of the cache while the server runs); one a millisecond, each with the
// scheduler's look at the runtime's poller, was still about 1 % of the
// generator's CPU there.
const yieldEvery = maxWait

// evloop drives a share of the run's connections from one goroutine, the
// way wrk drives its connections from one thread: it waits in epoll_wait
// (until the next request is due or an answer arrives), writes due
// requests, reads and parses answers and records them. There is no
// goroutine, channel or timer per request; the open model's pacing is the
// wait's timeout.
type evloop struct {
	r     *runner
	p     *poller
	conns []*conn
	busy  int // requests in flight on this loop

	// Open model: this loop sends requests id, id+n, id+2n, … of the
	// schedule, each on the connection that became free last.
	sched openSchedule
	ahead int64 // sendAhead(sched)
	idle  []*conn
	// maxLate: how late a request due while every connection is busy may
	// still leave (0: not at all, it is dropped). idle is about in the
	// order the connections came free (conn.freed), the oldest first.
	maxLate int64
	// stamps: the sockets stamp what they receive (SO_TIMESTAMPNS), so
	// answers may wait in them while the loop sleeps until the next send
	// (mayDefer); stamped: an answer came with its stamp, so the kernel
	// gives them. outPending counts connections waiting to write.
	stamps, stamped bool
	outPending      int
	sleeps          int64

	// Closed model: connections ready to send now, and those waiting out a
	// think time or a pause after a failed connect (both in wake-up order:
	// each queue's wait is the same for all).
	ready, spare []*conn
	thinking     fifo
	pausing      fifo
	think, pause int64
	sending      bool
	stoppedSend  func() // called once when this loop stops sending
	nextScan     int64  // next check of request deadlines: the earliest one pending, or -1
	timeout      int64
	nextYield    int64

	// The loop's clock, read once after each wait and again before sending
	// when answers were handled (not once per request and event): t is the
	// time, ns the same as ns since the run's start, wall its wall clock
	// (the kernel's receive stamps are on that clock).
	t            time.Time
	ns, wall     int64
	warm, endOff int64
	maxReq       int64
	closedModel  bool
}

// fifo is a queue of connections waiting until their wake time.
type fifo struct {
	cs   []*conn
	at   []int64
	head int
}

func (q *fifo) push(c *conn, at int64) {
	if q.head > 0 && q.head == len(q.cs) {
		q.cs, q.at, q.head = q.cs[:0], q.at[:0], 0
	}
	q.cs = append(q.cs, c)
	q.at = append(q.at, at)
}

// popDue takes the first connection if its time has come.
func (q *fifo) popDue(now int64) *conn {
	if q.head == len(q.cs) || q.at[q.head] > now {
		return nil
	}
	c := q.cs[q.head]
	q.cs[q.head] = nil
	q.head++
	return c
}

// next is the first wake time, or -1.
func (q *fifo) next() int64 {
	if q.head == len(q.cs) {
		return -1
	}
	return q.at[q.head]
}

func newEvloop(r *runner, id, n int, conns []*conn, stoppedSend func()) (*evloop, error) {
	p, err := newPoller(len(conns))
	if err != nil {
		return nil, err
	}
	l := &evloop{r: r, p: p, conns: conns, sending: true, stoppedSend: stoppedSend,
		timeout: int64(r.timeout), warm: int64(r.cfg.Warmup), endOff: int64(r.cfg.Warmup + r.cfg.Duration),
		maxReq: r.cfg.MaxRequests, closedModel: r.cfg.Closed != nil, nextScan: -1}
	for i, c := range conns {
		c.slot = i
		if c.fd >= 0 {
			if err := p.add(c.fd, i, false); err != nil {
				p.close()
				return nil, err
			}
		}
	}
	if l.closedModel {
		l.think = int64(r.cfg.Closed.Think)
		l.pause = max(l.think, int64(10*time.Millisecond)) // do not spin on a refused connect
		l.ready = append(l.ready, conns...)
	} else {
		l.sched = openSchedule{rate: r.cfg.Open.Rate, k: int64(id), step: int64(n)}
		l.ahead = sendAhead(l.sched)
		l.maxLate = int64(r.cfg.maxLate())
		l.stamps = true
		for _, c := range conns {
			if c.fd >= 0 {
				l.stamp(c)
			}
		}
		for i := len(conns) - 1; i >= 0; i-- {
			l.idle = append(l.idle, conns[i]) // conns[0] on top
		}
	}
	return l, nil
}

// tick reads the clock.
func (l *evloop) tick() {
	l.t = time.Now()
	l.ns = int64(l.t.Sub(l.r.start))
	l.wall = l.t.UnixNano()
}

// stamp asks c's new socket for receive stamps; without them no answer
// of this loop waits (mayDefer).
func (l *evloop) stamp(c *conn) {
	c.stamps = l.stamps && enableStamps(c.fd) == nil
	l.stamps = c.stamps
}

// mayDefer reports whether the loop may sleep until its next send and
// read the answers that came in meanwhile then, instead of waking up for
// each: the open model, while a free connection is left for the next
// request, nothing waits to be written, and the kernel stamps what the
// sockets receive (an answer then ends when its last bytes arrived, not
// when the loop read them). Below saturation that saves a wake-up per
// request, most of the generator's CPU.
func (l *evloop) mayDefer() bool {
	return l.stamps && l.stamped && l.sending && len(l.idle) > 0 && l.outPending == 0
}

// run drives the loop until it has stopped sending and its requests are
// answered, or the run is aborted (then what is in flight is not recorded).
func (l *evloop) run() {
	defer l.close()
	r := l.r
	l.tick()
	for {
		if r.aborted.Load() {
			return
		}
		if l.sending {
			if l.closedModel {
				l.sendClosed(l.ns)
			} else {
				l.sendDue(l.ns)
			}
			if !l.sending && l.closedModel && !r.stoppedEarly.Load() {
				// The window ended: a closed run's requests in flight are cut
				// off (like wrk), not recorded.
				return
			}
		}
		if !l.sending && l.busy == 0 {
			return
		}
		var evs []unix.EpollEvent
		var err error
		if d := l.wake(l.ns) - l.ns; d > 0 && l.mayDefer() {
			sleep(d)
			l.sleeps++
			evs, err = l.p.wait(0)
		} else {
			evs, err = l.p.wait(d)
		}
		if err != nil {
			panic(err) // a bad epoll descriptor or buffer: a bug
		}
		l.tick() // the answers' end time: they were in when the wait returned
		for _, ev := range evs {
			l.event(l.conns[ev.Fd], ev.Events)
		}
		if l.nextScan >= 0 && l.ns >= l.nextScan {
			l.expire(l.ns)
		}
		if l.ns >= l.nextYield {
			runtime.Gosched()
			l.nextYield = l.ns + yieldEvery
			l.tick()
		} else if len(evs) > 0 {
			l.tick() // the sends' start time: after the answers were handled
		}
	}
}

// wake is when the loop must look again: the next due request, the end of
// the window, a connection's wake time or a deadline check, within maxWait.
func (l *evloop) wake(now int64) int64 {
	w := now + maxWait
	if l.sending {
		if l.closedModel {
			if len(l.ready) > 0 {
				return now
			}
			w = min(w, l.endOff)
			for _, q := range []*fifo{&l.thinking, &l.pausing} {
				if at := q.next(); at >= 0 {
					w = min(w, at)
				}
			}
		} else {
			at := l.sched.at()
			if len(l.idle) == 0 && l.maxLate > 0 {
				// Every connection is busy: the next request leaves when an
				// answer frees one, or is dropped when it is too late.
				at += l.maxLate + 1
			}
			w = min(w, at)
		}
	}
	if l.busy > 0 && l.nextScan >= 0 {
		w = min(w, l.nextScan)
	}
	return w
}

// stopSending marks the end of this loop's sending.
func (l *evloop) stopSending() {
	if l.sending {
		l.sending = false
		l.stoppedSend()
	}
}

// halted reports whether the run asks every loop to stop sending (a
// cancel, or the MaxRequests bound reached on any loop).
func (l *evloop) halted() bool { return l.r.halt.Load() || l.r.stoppedEarly.Load() }

// sendDue sends the open model's requests that are due by now.
func (l *evloop) sendDue(now int64) {
	r := l.r
	if l.halted() {
		l.stopSending()
		return
	}
	for {
		at := l.sched.at()
		if at >= l.endOff {
			l.stopSending()
			return
		}
		if at > now+l.ahead {
			return
		}
		if len(l.idle) == 0 && l.maxLate > 0 && now-at <= l.maxLate {
			// Due while every connection is busy: it waits for the first
			// to come free (the loop wakes for its answer).
			return
		}
		measured := at >= l.warm
		if measured && l.maxReq > 0 && r.measuredSent.Add(1) > l.maxReq {
			r.stoppedEarly.Store(true)
			l.stopSending()
			return
		}
		l.sched.advance()
		n := len(l.idle)
		intended, sent := r.start.Add(time.Duration(at)), l.t
		ready := intended
		if n > 0 && l.idle[0].freed.After(intended) {
			// Every connection was busy when it fell due: it could leave
			// from when the first came free.
			ready = l.idle[0].freed
		}
		if n == 0 || int64(ready.Sub(intended)) > l.maxLate {
			// No connection is free, or the first came free later than it
			// may wait (the loop, late itself, found it free already).
			if measured {
				r.dropped.Add(1)
			}
			continue
		}
		if measured && ready.After(intended) {
			r.waited.Add(1)
		}
		if sent.Before(intended) {
			intended, ready = sent, sent // sent ahead: its latency counts from the send
		}
		c := l.idle[n-1]
		l.idle = l.idle[:n-1]
		if in := r.inflight.Add(1); in > r.maxInflight.Load() {
			r.maxInflight.Store(in)
		}
		l.start(c, intended, ready, sent, measured)
	}
}

// sendClosed starts the closed model's next requests: on every connection
// that is ready, and on those whose think time or pause is over. A
// connection whose request fails at once waits for the next round.
func (l *evloop) sendClosed(now int64) {
	r := l.r
	if now >= l.endOff || l.halted() {
		l.stopSending()
		return
	}
	for _, q := range []*fifo{&l.thinking, &l.pausing} {
		for c := q.popDue(now); c != nil; c = q.popDue(now) {
			l.ready = append(l.ready, c)
		}
	}
	batch := l.ready
	l.ready = l.spare[:0]
	for i, c := range batch {
		if !l.sending {
			l.ready = append(l.ready, c)
			continue
		}
		batch[i] = nil
		t := l.t
		measured := !t.Before(r.measure)
		if measured && l.maxReq > 0 && r.measuredSent.Add(1) > l.maxReq {
			r.stoppedEarly.Store(true)
			l.stopSending()
			l.ready = append(l.ready, c)
			continue
		}
		l.start(c, t, t, t, measured)
	}
	l.spare = batch[:0]
}

// start sends the next request of the mix on c.
func (l *evloop) start(c *conn, intended, ready, start time.Time, measured bool) {
	t, req := c.next()
	l.send(c, t, req, intended, ready, start, measured)
}

// send sends req, of template t, on c.
func (l *evloop) send(c *conn, t *tmpl, req []byte, intended, ready, start time.Time, measured bool) {
	c.t, c.req = t, req
	c.intended, c.ready, c.start, c.measured = intended, ready, start, measured
	c.sent, c.out, c.retried = 0, 0, false
	c.firstAt = time.Time{}
	c.busy = true
	l.busy++
	l.transmit(c)
}

// transmit (re)sends c's request from its first byte, connecting first
// when c has no connection.
func (l *evloop) transmit(c *conn) {
	if c.fd < 0 {
		if err := l.connect(c); err != nil {
			l.finish(c, 0, classify(err, errConnect))
			return
		}
	}
	c.sent = 0
	c.resetAnswer()
	c.inAt = c.in
	c.deadline = l.ns + l.timeout
	if l.nextScan < 0 {
		l.nextScan = c.deadline // deadlines only grow: a pending scan comes first
	}
	l.writeMore(c)
}

// writeMore writes what is left of c's request.
func (l *evloop) writeMore(c *conn) {
	done, err := c.write()
	if err != nil {
		if c.used && !c.retried && isReset(err) {
			l.retry(c)
			return
		}
		l.finish(c, 0, classify(err, errOther))
		return
	}
	if c.wantOut == !done {
		return // already watched for what it needs
	}
	l.setWantOut(c, !done)
	if err := l.p.modify(c.fd, c.slot, c.wantOut); err != nil {
		l.finish(c, 0, errOther)
	}
}

// setWantOut records whether c waits to write, keeping outPending.
func (l *evloop) setWantOut(c *conn, v bool) {
	if c.wantOut != v {
		c.wantOut = v
		if v {
			l.outPending++
		} else {
			l.outPending--
		}
	}
}

// retry sends c's request again on a fresh connection: the keep-alive
// connection it went out on had been closed by the server while idle.
func (l *evloop) retry(c *conn) {
	l.disconnect(c)
	c.retried = true
	c.out = 0
	l.transmit(c)
}

// event handles what the poller reported for c.
func (l *evloop) event(c *conn, ev uint32) {
	if c.fd < 0 {
		return
	}
	if ev&unix.EPOLLOUT != 0 && c.busy && c.wantOut {
		l.writeMore(c)
		if !c.busy || c.fd < 0 {
			return
		}
	}
	if ev&(unix.EPOLLIN|unix.EPOLLRDHUP|unix.EPOLLHUP|unix.EPOLLERR) == 0 {
		return
	}
	c.read()
	if !c.busy {
		// The server closed an idle connection (or wrote out of turn):
		// reconnect when it is next used.
		if c.connErr != nil || len(c.buf) > 0 {
			l.disconnect(c)
		}
		return
	}
	if c.firstAt.IsZero() && c.in > c.inAt {
		c.firstAt = l.t
		if c.rxAt != 0 { // the kernel's stamp of the bytes read so far
			if e := l.t.Add(time.Duration(c.rxAt - l.wall)); !e.Before(c.start) {
				c.firstAt = e
			}
		}
	}
	if c.connErr != nil && c.in == c.inAt && c.used && !c.retried && isReset(c.connErr) {
		l.retry(c)
		return
	}
	done, status, err := c.parse()
	if !done {
		return
	}
	if err != nil {
		l.finish(c, 0, classify(err, errProtocol))
		return
	}
	if c.closeAfter() || c.connErr != nil {
		l.disconnect(c)
	}
	if c.stamps {
		// The first answer says whether the kernel stamps them; if one
		// comes without, no answer waits any more.
		l.stamped = c.rxAt != 0
		l.stamps = l.stamps && l.stamped
	}
	l.finish(c, status, errNone)
}

// expire fails the requests whose deadline has passed and schedules the
// next check at the earliest deadline left: a run whose answers come in
// time checks about once per timeout, not once per wake-up.
func (l *evloop) expire(now int64) {
	next := int64(-1)
	for _, c := range l.conns {
		switch {
		case !c.busy:
		case now >= c.deadline:
			l.finish(c, 0, errTimeout)
		case next < 0 || c.deadline < next:
			next = c.deadline
		}
	}
	l.nextScan = next
}

// finish records c's request and frees c: on a failure its connection is
// closed; the closed model then starts c's next request (after the think
// time, or a pause after a failed connect), the open model puts c back on
// top of the free ones.
func (l *evloop) finish(c *conn, status int, kind errKind) {
	end := l.t
	if c.rxAt != 0 && kind == errNone {
		// The answer ended when its last bytes arrived (it may have
		// waited in the socket while the loop slept).
		if e := l.t.Add(time.Duration(c.rxAt - l.wall)); !e.Before(c.start) {
			end = e
		}
	}
	c.busy = false
	l.busy--
	if kind != errNone {
		l.disconnect(c)
	}
	if l.r.aborted.Load() {
		return
	}
	c.record(status, kind, end)
	if !l.closedModel {
		c.freed = end
		l.r.inflight.Add(-1)
		l.idle = append(l.idle, c)
		return
	}
	switch {
	case kind == errConnect:
		l.pausing.push(c, l.ns+l.pause)
	case l.think > 0:
		l.thinking.push(c, l.ns+l.think)
	default:
		l.ready = append(l.ready, c)
	}
}

// connect opens c's connection and hands its socket to the poller.
func (l *evloop) connect(c *conn) error {
	nc, err := l.r.dial()
	if err != nil {
		return err
	}
	fd, err := socketFD(nc)
	if err != nil {
		return err
	}
	if err := l.p.add(fd, c.slot, false); err != nil {
		unix.Close(fd)
		return err
	}
	l.setWantOut(c, false)
	c.fd, c.used = fd, false
	if !l.closedModel {
		l.stamp(c)
	}
	if c.br.Size() > bufSize {
		c.br = bufio.NewReaderSize(&c.src, bufSize) // drop a reader grown for a large header
	}
	return nil
}

// disconnect closes c's connection (the poller forgets it on close).
func (l *evloop) disconnect(c *conn) {
	c.closeFD()
	c.used = false
	l.setWantOut(c, false)
}

func (l *evloop) close() {
	l.r.sleeps.Add(l.sleeps)
	for _, c := range l.conns {
		l.disconnect(c)
	}
	l.p.close()
}

// connectAll opens every connection before the clock starts (16 at a
// time). It fails only when none opened.
func connectAll(r *runner, conns []*conn) error {
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		lastErr error
	)
	sem := make(chan struct{}, 16)
	for _, c := range conns {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			defer r.guard("connect")
			nc, err := r.dial()
			if err == nil {
				c.fd, err = socketFD(nc)
			}
			if err != nil {
				mu.Lock()
				lastErr = err
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	for _, c := range conns {
		if c.fd >= 0 {
			return nil
		}
	}
	if lastErr == nil {
		lastErr = errors.New("no connection")
	}
	return lastErr
}
