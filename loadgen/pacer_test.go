package loadgen

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"
	"time"
)

// pacerRun is a runner with only what the pacer reads: an open model at
// rate with slots in-flight slots, started now.
func pacerRun(rate float64, slots int, warmup, duration time.Duration) *runner {
	return &runner{cfg: Config{Open: &Open{Rate: rate, MaxInFlight: slots}, Warmup: warmup, Duration: duration},
		workers: slots, start: time.Now()}
}

// handout is a request the pacer handed to a worker.
type handout struct {
	w  *worker
	at int64
}

// pacerWorkers are slots workers without connections: what the pacer
// hands each one comes out of the returned channel; stop closes their
// channels once the pacer has returned.
func pacerWorkers(slots int) (idle *idleWorkers, out <-chan handout, stop func()) {
	ws := make([]*worker, slots)
	ch := make(chan handout)
	for i := range ws {
		w := &worker{id: i, due: make(chan int64)}
		ws[i] = w
		go func() {
			for at := range w.due {
				ch <- handout{w, at}
			}
		}()
	}
	return newIdleWorkers(ws), ch, func() {
		for _, w := range ws {
			close(w.due)
		}
	}
}

// The pacer hands out every request at its scheduled time (k/rate after
// the start), warm-up included, and returns at the scheduled end. It runs
// in a synctest bubble: the fake clock moves only when the pacer waits, so
// a request handed out late, early or not at all is seen exactly, which a
// run against a server on a shared machine can only check within 1 %.
func TestPacerHoldsRate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const rate = 2000
		r := pacerRun(rate, 500, 200*time.Millisecond, 2*time.Second)
		idle, due, stop := pacerWorkers(500)
		defer stop()
		done := make(chan struct{})
		go func() { r.pace(context.Background(), idle); close(done) }()
		var n int64
		var bad []string // the first few; the pacer must run to its end
		for {
			select {
			case h := <-due:
				at := h.at
				if want := int64(float64(n) * 1e9 / rate); at != want && len(bad) < 3 {
					bad = append(bad, fmt.Sprintf("request %d due at %v, want %v", n, time.Duration(at), time.Duration(want)))
				}
				if late := time.Since(r.start) - time.Duration(at); late != 0 && len(bad) < 3 {
					bad = append(bad, fmt.Sprintf("request %d handed out %v after its time", n, late))
				}
				n++
				r.inflight.Add(-1) // answered at once
				idle.push(h.w)
				continue
			case <-done:
			}
			break
		}
		for _, b := range bad {
			t.Error(b)
		}
		if want := int64(rate * 2.2); n != want || r.dropped.Load() != 0 {
			t.Errorf("%d requests handed out (%d dropped), want %d in 2.2 s at %v req/s", n, r.dropped.Load(), want, rate)
		}
		if el := time.Since(r.start); el != 2200*time.Millisecond {
			t.Errorf("pacer returned after %v, want at the scheduled end (2.2 s)", el)
		}
	})
}

// A request due while every slot is busy is dropped, not queued: with 4
// slots each held 51 ms and a request every 2.5 ms, each slot takes one
// request every 21 (52.5 ms), so 77 of 400 go out and 323 are dropped.
// In a synctest bubble the count is exact (the run against a server
// sleeping 50 ms could only bound it).
func TestPacerDropsBeyondInFlightBound(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := pacerRun(400, 4, 0, time.Second)
		idle, due, stop := pacerWorkers(4)
		defer stop()
		done := make(chan struct{})
		go func() { r.pace(context.Background(), idle); close(done) }()
		var sent int64
		for {
			select {
			case h := <-due:
				sent++
				go func() {
					time.Sleep(51 * time.Millisecond)
					r.inflight.Add(-1)
					idle.push(h.w)
				}()
				continue
			case <-done:
			}
			break
		}
		time.Sleep(time.Second) // let the last holders end
		if sent != 77 || r.dropped.Load() != 323 || r.maxInflight.Load() != 4 {
			t.Errorf("4 slots of 51 ms at 400 req/s: %d sent, %d dropped, max in flight %d; want 77, 323, 4",
				sent, r.dropped.Load(), r.maxInflight.Load())
		}
	})
}

// The pacer hands each request to the worker that became free last, so the
// load stays on as few connections as it needs: at 1,000 req/s with
// answers taking 2.5 ms, three workers of 100 carry it all (round robin
// over a queue of free workers would use all 100).
func TestPacerKeepsLoadOnFewWorkers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := pacerRun(1000, 100, 0, time.Second)
		idle, due, stop := pacerWorkers(100)
		defer stop()
		done := make(chan struct{})
		go func() { r.pace(context.Background(), idle); close(done) }()
		used := map[int]int{}
		for {
			select {
			case h := <-due:
				used[h.w.id]++
				go func() {
					time.Sleep(2500 * time.Microsecond)
					r.inflight.Add(-1)
					idle.push(h.w)
				}()
				continue
			case <-done:
			}
			break
		}
		time.Sleep(10 * time.Millisecond) // let the last answers end
		if len(used) != 3 || r.dropped.Load() != 0 || r.maxInflight.Load() != 3 {
			t.Errorf("1,000 req/s of 2.5 ms on 100 workers: %d workers used (%v), %d dropped, max in flight %d; want 3, 0, 3",
				len(used), used, r.dropped.Load(), r.maxInflight.Load())
		}
	})
}
