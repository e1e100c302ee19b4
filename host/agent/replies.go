package agent

import "sync"

// reply is a finished (or running) answer to a request ID.
type reply struct {
	sum    [32]byte // SHA-256 of the request body
	done   chan struct{}
	status int
	body   []byte
}

// replies remembers the answers to the last n request IDs of a lease, so
// a retried request is answered without being done twice. A retry that
// arrives while the first is still running waits for it.
type replies struct {
	mu    sync.Mutex
	n     int
	m     map[string]*reply
	order []string
}

func newReplies(n int) *replies { return &replies{n: n, m: map[string]*reply{}} }

// claim returns the reply for id and whether the caller must produce it
// (first time) or wait for it (a repeat). A repeat whose body hash differs
// from the first one's gets nil: the ID was reused for another request.
func (rs *replies) claim(id string, sum [32]byte) (r *reply, first bool) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if r, ok := rs.m[id]; ok {
		if r.sum != sum {
			return nil, false
		}
		return r, false
	}
	r = &reply{sum: sum, done: make(chan struct{})}
	rs.m[id] = r
	rs.order = append(rs.order, id)
	if len(rs.order) > rs.n {
		old := rs.order[0]
		rs.order = rs.order[1:]
		if o := rs.m[old]; o != nil {
			select {
			case <-o.done:
				delete(rs.m, old)
			default: // still running: keep it
			}
		}
	}
	return r, true
}

func (r *reply) finish(status int, body []byte) {
	r.status, r.body = status, body
	close(r.done)
}
