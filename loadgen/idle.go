package loadgen

import "sync"

// idleWorkers is the open model's set of workers free to send, a stack:
// the pacer hands a due request to the worker that became free last, so
// the load stays on as few connections as the rate needs (about rate ×
// latency, Little's law) instead of spreading over all MaxInFlight of them.
// A server answers a few hot connections more cheaply than hundreds of
// cold ones (PostgREST's warp costs more per request with 50 or 200 busy
// connections than with 10), and a generator that spreads its load round
// robin measures that cost instead of the server's capacity.
type idleWorkers struct {
	mu sync.Mutex
	ws []*worker
}

// newIdleWorkers holds all of ws, ws[0] on top.
func newIdleWorkers(ws []*worker) *idleWorkers {
	s := &idleWorkers{ws: make([]*worker, 0, len(ws))}
	for i := len(ws) - 1; i >= 0; i-- {
		s.ws = append(s.ws, ws[i])
	}
	return s
}

// pop takes the worker that became free last, nil when all are busy.
func (s *idleWorkers) pop() *worker {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(s.ws)
	if n == 0 {
		return nil
	}
	w := s.ws[n-1]
	s.ws = s.ws[:n-1]
	return w
}

// push puts a worker that finished its request back on top.
func (s *idleWorkers) push(w *worker) {
	s.mu.Lock()
	s.ws = append(s.ws, w)
	s.mu.Unlock()
}
