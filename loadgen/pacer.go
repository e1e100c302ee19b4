package loadgen

import (
	"context"
	"time"
)

// pace is the open model's pacer: it wakes up (about once a millisecond at
// high rates) and hands every request that is due to the worker that
// became free last; one due while all MaxInFlight workers are busy is
// dropped.
func (r *runner) pace(ctx context.Context, idle *idleWorkers) {
	rate := r.cfg.Open.Rate
	warm := int64(r.cfg.Warmup)
	endOff := int64(r.cfg.Warmup + r.cfg.Duration)
	maxReq := r.cfg.MaxRequests
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	var k, measured int64
	for {
		now := int64(time.Since(r.start))
		for {
			at := int64(float64(k) * 1e9 / rate)
			if at > now || at >= endOff {
				break
			}
			if at >= warm {
				if maxReq > 0 && measured >= maxReq {
					r.stoppedEarly.Store(true)
					return
				}
				measured++
			}
			k++
			w := idle.pop()
			if w == nil {
				if at >= warm {
					r.dropped.Add(1)
				}
				continue
			}
			n := r.inflight.Add(1)
			if n > r.maxInflight.Load() {
				r.maxInflight.Store(n)
			}
			w.due <- at
		}
		next := int64(float64(k) * 1e9 / rate)
		if next >= endOff {
			// Sleep to the scheduled end.
			next = endOff
		}
		wait := time.Duration(next - int64(time.Since(r.start)))
		if wait <= 0 {
			if next == endOff {
				return
			}
			continue
		}
		timer.Reset(wait)
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
		}
		if next == endOff && int64(time.Since(r.start)) >= endOff {
			return
		}
	}
}
