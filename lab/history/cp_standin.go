package history

import (
	"math"
	"sort"
)

// STAND-IN for lab/changepoint, being written at the same time: the same
// types and signature, so that the merge replaces this file with
//
//	type cpOptions = changepoint.Options
//	type cpPoint = changepoint.Point
//	var detect = changepoint.Detect
//
// The stand-in is binary segmentation on the difference of means with a
// crude threshold (|t| > 4): enough for a clear step in tests, not the
// E-Divisive means test the package doc describes.

// cpOptions are changepoint.Options: zero values mean the defaults.
type cpOptions struct {
	MaxP       float64
	MinSegment int
	Window     int
	MinChange  float64
}

// cpPoint is changepoint.Point: Index is the first index of the new level;
// Change = After/Before-1, with its interval CILow..CIHigh (same scale).
type cpPoint struct {
	Index                                   int
	Before, After, Change, CILow, CIHigh, P float64
}

var detect = standinDetect

func standinDetect(xs []float64, o cpOptions) []cpPoint {
	minSeg := o.MinSegment
	if minSeg <= 0 {
		minSeg = 3
	}
	var out []cpPoint
	var split func(lo, hi int)
	split = func(lo, hi int) {
		if hi-lo < 2*minSeg {
			return
		}
		best, bestT := -1, 0.0
		for k := lo + minSeg; k <= hi-minSeg; k++ {
			a, b := xs[lo:k], xs[k:hi]
			ma, mb := mean(a), mean(b)
			s := math.Sqrt((ssq(a, ma) + ssq(b, mb)) / float64(hi-lo-2))
			if s == 0 {
				s = 1e-12 * math.Max(math.Abs(ma), 1)
			}
			t := math.Abs(ma-mb) / (s * math.Sqrt(1/float64(len(a))+1/float64(len(b))))
			if t > bestT {
				best, bestT = k, t
			}
		}
		if best < 0 || bestT < 4 {
			return
		}
		a, b := xs[lo:best], xs[best:hi]
		ma, mb := mean(a), mean(b)
		if ma == 0 || math.Abs(mb/ma-1) < o.MinChange {
			return
		}
		se := math.Sqrt(ssq(a, ma)/float64(len(a)*len(a))+ssq(b, mb)/float64(len(b)*len(b))) / math.Abs(ma)
		c := mb/ma - 1
		out = append(out, cpPoint{Index: best, Before: ma, After: mb, Change: c, CILow: c - 2*se, CIHigh: c + 2*se, P: 0.001})
		split(lo, best)
		split(best, hi)
	}
	split(0, len(xs))
	sort.Slice(out, func(i, j int) bool { return out[i].Index < out[j].Index })
	return out
}

func mean(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

func ssq(xs []float64, m float64) float64 {
	var s float64
	for _, x := range xs {
		s += (x - m) * (x - m)
	}
	return s
}
