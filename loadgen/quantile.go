package loadgen

import (
	"math"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// quantiles are the values of h at qs (fractions in [0, 1]) by k6's rule
// for its Trend metrics' med and p(N), which is also numpy's default: the
// value at rank q·(n-1) of the sorted values (from 0), interpolated
// linearly between the two values around it when it falls between them.
// A value is its histogram bucket's lowest equivalent: recorded values on
// a bucket's start (multiples of its width) come back exactly, any other
// within the histogram's 3 significant digits. Every percentile of a
// Summary is one of these, so that a k6 column and the lab's own tables
// say the same of the same samples.
func quantiles(h *hdrhistogram.Histogram, qs ...float64) []time.Duration {
	out := make([]time.Duration, len(qs))
	n := h.TotalCount()
	if n == 0 {
		return out
	}
	bars := h.Distribution()
	at := func(rank int64) float64 { // the rank-th value, from 0
		var seen int64
		for _, b := range bars {
			if seen += b.Count; rank < seen {
				return float64(b.From)
			}
		}
		return float64(bars[len(bars)-1].From)
	}
	for i, q := range qs {
		r := min(max(q, 0), 1) * float64(n-1)
		lo, hi := at(int64(math.Floor(r))), at(int64(math.Ceil(r)))
		out[i] = time.Duration(math.Round(lo + (hi-lo)*(r-math.Floor(r))))
	}
	return out
}

// moments are the exact count, sum, least and greatest of the values a
// histogram records (it keeps 3 significant digits; these every
// nanosecond): a Summary's mean, min and max.
type moments struct{ n, sum, min, max int64 }

func (m *moments) add(v int64) {
	if m.n == 0 || v < m.min {
		m.min = v
	}
	m.max = max(m.max, v)
	m.n++
	m.sum += v
}

func (m *moments) merge(o moments) {
	if o.n == 0 {
		return
	}
	if m.n == 0 || o.min < m.min {
		m.min = o.min
	}
	m.max = max(m.max, o.max)
	m.n += o.n
	m.sum += o.sum
}

// mean is the arithmetic mean, to the nanosecond (0 without values).
func (m moments) mean() time.Duration {
	if m.n == 0 {
		return 0
	}
	return time.Duration(math.Round(float64(m.sum) / float64(m.n)))
}
