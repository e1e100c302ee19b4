package loadgen

import (
	"cmp"
	"slices"
	"time"
)

// edgeK is the most answers kept at each edge of the measured window: the
// first to finish and the last.
const edgeK = 64

// edge is one measured successful answer: when it finished and its
// latency (from its intended start).
type edge struct {
	at  time.Time
	lat time.Duration
}

// edges are a shard's first and last measured successful answers, in the
// order they finished (last is a ring).
type edges struct {
	first []edge
	last  [edgeK]edge
	n     int
}

func (e *edges) add(at time.Time, lat time.Duration) {
	if len(e.first) < edgeK {
		e.first = append(e.first, edge{at, lat})
	}
	e.last[e.n%edgeK] = edge{at, lat}
	e.n++
}

// latencyDrift is how much later, at the window's end, answers arrived
// than at its start: the median latency of the last answers to finish
// less that of the first, over 5 % of the answers at each edge (between 1
// and edgeK). A server that keeps pace drifts by nothing, however long its
// answers take; one that falls behind answers its last requests after the
// window by that much. Medians over several answers, not the single
// first and last, so that one slow answer at the end of a steady hold (a
// stall of the VM, a GC) does not read as a backlog. ok is false without
// timed answers.
func latencyDrift(shards []*edges, answers int64) (drift time.Duration, ok bool) {
	var first, last []edge
	for _, e := range shards {
		first = append(first, e.first...)
		n := min(e.n, edgeK)
		for i := range n {
			last = append(last, e.last[(e.n-1-i)%edgeK])
		}
	}
	if len(first) == 0 || len(last) == 0 {
		return 0, false
	}
	k := int(min(max(answers/20, 1), edgeK))
	byAt := func(a, b edge) int { return a.at.Compare(b.at) }
	slices.SortFunc(first, byAt)
	slices.SortFunc(last, byAt)
	first, last = first[:min(k, len(first))], last[max(0, len(last)-k):]
	return medianLat(last) - medianLat(first), true
}

func medianLat(es []edge) time.Duration {
	l := make([]time.Duration, len(es))
	for i, e := range es {
		l[i] = e.lat
	}
	slices.SortFunc(l, cmp.Compare)
	return l[len(l)/2]
}
