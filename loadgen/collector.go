package loadgen

import (
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// collector takes the shards' interval data once a second, on ticks aligned
// with the start of the measured part, for the per-second series and the
// live progress.
type collector struct {
	r        *runner
	progress func(Progress)
	iv       *hdrhistogram.Histogram
	series   []Second
	done     chan struct{}
	last     time.Time
	dropped  int64
	requests int64
	errors   int64
	carryReq int64 // measured answers drained by a warm-up tick
	carryErr int64
}

func newCollector(r *runner, progress func(Progress)) *collector {
	return &collector{r: r, progress: progress, iv: hdrhistogram.New(histLow, histHigh, 2),
		done: make(chan struct{}), last: r.start}
}

func (c *collector) finish() { close(c.done) }

func (c *collector) loop() {
	r := c.r
	j := -int64(r.cfg.Warmup / time.Second)
	if !r.measure.Add(time.Duration(j) * time.Second).After(r.start) {
		j++
	}
	timer := time.NewTimer(time.Until(r.measure.Add(time.Duration(j) * time.Second)))
	defer timer.Stop()
	for {
		select {
		case <-timer.C:
			tick := r.measure.Add(time.Duration(j) * time.Second)
			c.snapshot(tick, j >= 1, false)
			j++
			timer.Reset(time.Until(r.measure.Add(time.Duration(j) * time.Second)))
		case <-c.done:
			now := time.Now()
			// A tick that is due but lost the race with the end still
			// closes its second: else that second would merge into the one
			// before it.
			for tick := r.measure.Add(time.Duration(j) * time.Second); !tick.After(now) && j >= 1 &&
				tick.Sub(r.measure) <= r.cfg.Duration; tick = r.measure.Add(time.Duration(j) * time.Second) {
				c.snapshot(tick, true, false)
				j++
			}
			c.snapshot(now, now.After(r.measure), true)
			return
		}
	}
}

func (c *collector) snapshot(now time.Time, measured, final bool) {
	r := c.r
	c.iv.Reset()
	var acc interval
	for _, s := range r.shards {
		s.drain(c.iv, &acc)
	}
	dropped := r.dropped.Load()
	dd := dropped - c.dropped
	c.dropped = dropped
	c.requests += acc.measured
	c.errors += acc.measErrs
	span := now.Sub(c.last)
	c.last = now
	p50, p99, mx := time.Duration(0), time.Duration(0), time.Duration(0)
	if c.iv.TotalCount() > 0 {
		p50 = time.Duration(c.iv.ValueAtQuantile(50))
		p99 = time.Duration(c.iv.ValueAtQuantile(99))
		mx = time.Duration(c.iv.Max())
	}
	if !measured {
		// A warm-up tick drained a little after the measured part began:
		// keep those answers for the first second.
		c.carryReq += acc.measured
		c.carryErr += acc.measErrs
	} else {
		acc.measured += c.carryReq
		acc.measErrs += c.carryErr
		c.carryReq, c.carryErr = 0, 0
	}
	empty := acc.n == 0 && dd == 0
	if measured && final && len(c.series) > 0 && (now.Sub(r.measure) > r.cfg.Duration || (empty && span < 10*time.Millisecond)) {
		// Answers arriving after the scheduled end belong to the last second.
		l := &c.series[len(c.series)-1]
		l.Requests += acc.measured
		l.Errors += acc.measErrs
		l.Dropped += dd
		l.BytesIn += acc.in
		l.P99, l.Max = max(l.P99, p99), max(l.Max, mx)
	} else if measured {
		c.series = append(c.series, Second{At: now.Sub(r.measure).Round(time.Millisecond), Requests: acc.measured,
			Errors: acc.measErrs, Dropped: dd, P50: p50, P99: p99, Max: mx, BytesIn: acc.in})
	}
	if c.progress != nil {
		rate := 0.0
		if span > 0 {
			rate = float64(acc.n-acc.errs) / span.Seconds()
		}
		total := r.cfg.Warmup + r.cfg.Duration
		el := min(now.Sub(r.start), total)
		c.progress(Progress{Elapsed: el, Total: total, Warmup: !now.After(r.measure),
			Requests: c.requests, Errors: c.errors, Dropped: dropped, Rate: rate, P99: p99,
			InFlight: int(r.inflight.Load())})
	}
}

// result merges the shards into the run's Result.
func (r *runner) result(c *collector, measured time.Duration) *Result {
	lat, svc, lag, first := newHist(), newHist(), newHist(), newHist()
	var latM, svcM moments
	var phases *phaseHists
	if r.cfg.ServerTiming {
		phases = newPhaseHists()
	}
	s := Summary{Status: map[int]int64{}, ErrorKinds: map[string]int64{}, Duration: measured,
		Dropped: r.dropped.Load(), Waited: r.waited.Load(), Scenario: r.mix.names, Connections: r.workers}
	for _, sh := range r.shards {
		sh.mu.Lock()
		lat.Merge(sh.lat)
		latM.merge(sh.latM)
		if sh.sameSvc {
			svc.Merge(sh.lat)
			svcM.merge(sh.latM)
		} else {
			svc.Merge(sh.svc)
			svcM.merge(sh.svcM)
		}
		if sh.lag != nil {
			lag.Merge(sh.lag)
		}
		first.Merge(sh.first)
		if sh.phases != nil {
			phases.merge(sh.phases)
		}
		s.Requests += sh.n
		s.Errors += sh.errs
		s.BytesIn += sh.in
		s.BytesOut += sh.out
		for code, n := range sh.status {
			if n > 0 {
				s.Status[code] += n
			}
		}
		for k, n := range sh.kinds {
			if n > 0 {
				s.ErrorKinds[errKind(k).String()] += n
			}
		}
		sh.mu.Unlock()
	}
	var firstAt, lastAt time.Time
	var es []*edges
	for _, sh := range r.shards {
		if !sh.firstAt.IsZero() && (firstAt.IsZero() || sh.firstAt.Before(firstAt)) {
			firstAt = sh.firstAt
		}
		if sh.lastAt.After(lastAt) {
			lastAt = sh.lastAt
		}
		es = append(es, &sh.edges)
	}
	s.Elapsed = max(measured, lastAt.Sub(firstAt))
	if drift, ok := latencyDrift(es, s.Succeeded()); ok && r.cfg.Open != nil { // a closed model builds no backlog
		s.Elapsed = max(measured, measured+drift)
	}
	if s.Elapsed > 0 {
		s.Rate = float64(s.Succeeded()) / s.Elapsed.Seconds()
	}
	if lat.TotalCount() > 0 {
		q := quantiles(lat, 0.50, 0.90, 0.95, 0.99, 0.999)
		s.Min, s.Max, s.Mean = time.Duration(latM.min), time.Duration(latM.max), latM.mean()
		s.P50, s.P90, s.P95, s.P99, s.P999 = q[0], q[1], q[2], q[3], q[4]
		sq := quantiles(svc, 0.50, 0.90, 0.95, 0.99, 0.999)
		s.ServiceMin, s.ServiceMax, s.ServiceMean = time.Duration(svcM.min), time.Duration(svcM.max), svcM.mean()
		s.ServiceP50, s.ServiceP90, s.ServiceP95, s.ServiceP99, s.ServiceP999 = sq[0], sq[1], sq[2], sq[3], sq[4]
	}
	if first.TotalCount() > 0 {
		q := quantiles(first, 0.50, 0.90, 0.99)
		s.FirstByteP50, s.FirstByteP90, s.FirstByteP99, s.FirstByteMax = q[0], q[1], q[2], time.Duration(first.Max())
	}
	if lag.TotalCount() > 0 {
		s.SendDelayP50 = time.Duration(lag.ValueAtQuantile(50))
		s.SendDelayP99 = time.Duration(lag.ValueAtQuantile(99))
		s.SendDelayMax = time.Duration(lag.Max())
	}
	if phases != nil && phases.n > 0 {
		s.Timed = phases.n
		for i, h := range phases.ph {
			s.Phases = append(s.Phases, phaseOf(PhaseNames[i], h))
		}
		s.ServerTotal = phaseOf("total", phases.total)
	}
	s.Endpoints = r.endpoints()
	if r.cfg.Open != nil {
		s.Model, s.TargetRate = "open", r.cfg.Open.Rate
		s.MaxInFlight = int(r.maxInflight.Load())
	} else {
		s.Model = "closed"
		s.MaxInFlight = r.workers
	}
	return &Result{Summary: s, Series: c.series, Latency: lat, Service: svc}
}
