package loadgen

import (
	"bytes"
	"math/rand/v2"
	"time"

	"github.com/valyala/fasthttp"
)

// worker is what a connection sends and where its answers go: its place in
// the mix, its random values, its render buffers and its metrics shard.
type worker struct {
	r   *runner
	id  int
	sh  *shard
	rng *rand.Rand
	buf []byte
	bod []byte
	// phases is the scratch for an answer's Server-Timing phases.
	phases [NumPhases]int64
	// stName is Server-Timing as the server spells it; stSearches counts
	// the answers searched for it (peekServerTiming).
	stName     []byte
	stSearches int
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
	t := reqs[(m.rr[i].Add(1)-1)%uint64(len(reqs))]
	return t, t.render(&w.buf, &w.bod, w.rng)
}

// record records c's finished request: intended is when it was due (the
// open model's timeline; in the closed model its send time), ready when
// the generator could first send it, start when it was written, end when
// its answer was in.
func (c *conn) record(status int, kind errKind, end time.Time) {
	t, w := c.t, c.worker
	lat, svc, lag := end.Sub(c.intended), end.Sub(c.start), c.start.Sub(c.ready)
	if kind != errNone {
		lat = -1
	} else if !t.accepts(status) {
		kind = errStatus
	}
	first := time.Duration(-1)
	if !c.firstAt.IsZero() {
		first = min(c.firstAt.Sub(c.intended), lat) // the last byte's stamp may be the kernel's, finer
	}
	w.sh.record(c.measured, status, kind, lat, svc, lag, first, c.in-c.inAt, c.out)
	if c.measured && t.ep >= 0 {
		w.sh.recordEndpoint(t.ep, status, kind, lat)
	}
	if c.measured && kind == errNone && w.sh.phases != nil {
		if v := c.serverTiming(); len(v) > 0 && parseServerTiming(v, &w.phases) {
			w.sh.recordPhases(&w.phases)
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

// peekServerTiming returns the answer's Server-Timing header. Header names
// are not normalized (see newConn): the lookup is exact, for the spelling
// the server was seen to use ("Server-Timing" until then); the first
// answers without it are searched ignoring case, so that a server spelling
// it otherwise is learnt, and a server that sends none costs no search
// after them.
func (w *worker) peekServerTiming(h *fasthttp.ResponseHeader) []byte {
	if w.stName == nil {
		w.stName = serverTimingName
	}
	if v := h.PeekBytes(w.stName); len(v) > 0 {
		return v
	}
	if w.stSearches >= maxTimingSearches {
		return nil
	}
	w.stSearches++
	for k, v := range h.All() {
		if bytes.EqualFold(k, serverTimingName) {
			w.stName, w.stSearches = append([]byte(nil), k...), maxTimingSearches
			return v
		}
	}
	return nil
}

// maxTimingSearches is how many answers without Server-Timing are searched
// for another spelling of it.
const maxTimingSearches = 16

var serverTimingName = []byte("Server-Timing")
