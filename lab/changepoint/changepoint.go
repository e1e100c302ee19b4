package changepoint

import (
	"fmt"
	"math"
	"slices"
)

// The defaults of Options' zero values.
const (
	// DefaultMaxP is Otava's max_pvalue. With it, flat series of 30–40
	// points in 2 % Gaussian noise get a change point about 0.9 % of the
	// time (TestFalseAlarmRate), and a step of 1.5 standard deviations with
	// 20 points on each side is found in about 83 % of series.
	DefaultMaxP = 0.001
	// DefaultMinSegment keeps a single outlier (or two) from being a level
	// of its own, and gives each side a variance estimate.
	DefaultMinSegment = 3
	// DefaultWindow is Otava's split window (window_len in its split step;
	// its command line uses 50). Larger windows find smaller changes and
	// change points closer together less readily; smaller ones see less
	// context.
	DefaultWindow = 30
)

// Options tunes Detect. Zero values take the defaults.
type Options struct {
	// MaxP is the significance level: a change point is kept when the
	// t-test between its neighbouring segments has p < MaxP. 0 means
	// DefaultMaxP; it must be in [0, 1].
	MaxP float64
	// MinSegment is the fewest points on each side of a change (between
	// two change points, or a change point and an end of the series).
	// 0 means DefaultMinSegment; otherwise it must be at least 2.
	MinSegment int
	// Window is the length of Otava's sliding windows. 0 means
	// DefaultWindow; otherwise it must be at least 2·MinSegment. Memory is
	// O(Window²).
	Window int
	// MinChange is the smallest relative change |After/Before − 1| that
	// is reported (0.02 = 2 %); smaller significant changes are merged
	// away as in Otava's min_magnitude. Default 0.
	MinChange float64
}

func (o Options) resolve() (Options, error) {
	switch {
	case math.IsNaN(o.MaxP) || o.MaxP < 0 || o.MaxP > 1:
		return o, fmt.Errorf("changepoint: MaxP %v is not in [0, 1]", o.MaxP)
	case o.MinSegment < 0 || o.MinSegment == 1:
		return o, fmt.Errorf("changepoint: MinSegment %d is below 2", o.MinSegment)
	case o.Window < 0:
		return o, fmt.Errorf("changepoint: Window %d is negative", o.Window)
	case math.IsNaN(o.MinChange) || o.MinChange < 0:
		return o, fmt.Errorf("changepoint: MinChange %v is negative", o.MinChange)
	}
	if o.MaxP == 0 {
		o.MaxP = DefaultMaxP
	}
	if o.MinSegment == 0 {
		o.MinSegment = DefaultMinSegment
	}
	if o.Window == 0 {
		o.Window = DefaultWindow
	}
	if o.Window < 2*o.MinSegment {
		return o, fmt.Errorf("changepoint: Window %d is shorter than 2·MinSegment (%d)", o.Window, 2*o.MinSegment)
	}
	return o, nil
}

// firstPassP is the relaxed level of the split step, Otava's rule: 10·MaxP
// below 0.05, 2·MaxP below 0.5, else MaxP.
func (o Options) firstPassP() float64 {
	switch {
	case o.MaxP < 0.05:
		return 10 * o.MaxP
	case o.MaxP < 0.5:
		return 2 * o.MaxP
	}
	return o.MaxP
}

// Point is one change point: the series' level changes from index Index on.
type Point struct {
	Index         int     // first index of the new level (0 < Index < len(xs))
	Before, After float64 // means of the segments on either side (between the neighbouring change points)
	Change        float64 // After/Before − 1 (0 when Before is 0)
	CILow, CIHigh float64 // 95 % confidence interval of Change (Fieller, Welch df)
	P             float64 // the t-test's p-value (Student's, each side's variance at least the pooled one)
}

// String is e.g. "+3.1 % at 12 (p=0.0002, 95% CI +2.0..+4.2 %)".
func (p Point) String() string {
	return fmt.Sprintf("%+.1f %% at %d (p=%.2g, 95%% CI %+.1f..%+.1f %%)",
		100*p.Change, p.Index, p.P, 100*p.CILow, 100*p.CIHigh)
}

// Detect returns the change points of xs, in index order; nil when there
// are none or DetectE would return an error (NaN or ±Inf in xs, invalid
// Options). It never panics.
func Detect(xs []float64, o Options) []Point {
	ps, err := DetectE(xs, o)
	if err != nil {
		return nil
	}
	return ps
}

// DetectE returns the change points of xs, in index order (nil when there
// are none), or an error when xs holds NaN or ±Inf or o is invalid. All
// fields of the points are finite.
func DetectE(xs []float64, o Options) ([]Point, error) {
	o, err := o.resolve()
	if err != nil {
		return nil, err
	}
	for i, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("changepoint: xs[%d] is %v", i, x)
		}
	}
	if len(xs) < 2*o.MinSegment {
		return nil, nil
	}
	y, exp := scaled(xs)
	weak := splitStep(y, o)
	cps := mergeStep(y, weak, o)
	if len(cps) == 0 {
		return nil, nil
	}
	ps := make([]Point, len(cps))
	for i, c := range cps {
		lo, hi := c.s.ci95()
		ps[i] = Point{
			Index:  c.index,
			Before: math.Ldexp(c.s.meanBefore(), exp),
			After:  math.Ldexp(c.s.meanAfter(), exp),
			Change: c.s.change(),
			CILow:  lo,
			CIHigh: hi,
			P:      c.p,
		}
	}
	return ps, nil
}

// scaled is xs times a power of two 2^−exp (exact) such that the largest
// |value| is below 1, so that no sum or square overflows or underflows.
func scaled(xs []float64) (y []float64, exp int) {
	big := 0.0
	for _, x := range xs {
		big = max(big, math.Abs(x))
	}
	if big == 0 {
		return slices.Clone(xs), 0
	}
	_, exp = math.Frexp(big) // big = f·2^exp, 0.5 ≤ f < 1
	y = make([]float64, len(xs))
	for i, x := range xs {
		y[i] = math.Ldexp(x, -exp)
	}
	return y, exp
}

// splitStep returns the weak change points, sorted: the union of what
// E-Divisive with the t-test at the first-pass level finds in each window.
// The windows are Otava's: Window long, each starting half a window after
// the previous one or at that one's last change point, if later.
func splitStep(y []float64, o Options) []int {
	var cps []int
	step := max(o.Window/2, 1)
	for start := 0; start < len(y); {
		end := min(start+o.Window, len(y))
		found := divide(y[start:end], o.MinSegment, o.firstPassP())
		next := start + step
		for _, c := range found {
			cps = append(cps, start+c)
			next = max(next, start+c)
		}
		start = next
	}
	slices.Sort(cps)
	return slices.Compact(cps)
}

// divide is E-Divisive within one window with the t-test for significance:
// the best split over all current segments is kept while its t-test
// (between the two sides within its segment) has p < maxP. It returns the
// splits, sorted.
func divide(y []float64, minSeg int, maxP float64) []int {
	if len(y) < 2*minSeg {
		return nil
	}
	d := newDistances(y)
	bounds := []int{0, len(y)}
	for {
		best, bestQ, seg := -1, math.Inf(-1), 0
		for i := 0; i+1 < len(bounds); i++ {
			tau, q, ok := d.bestSplit(bounds[i], bounds[i+1], minSeg)
			if ok && q > bestQ {
				best, bestQ, seg = tau, q, i
			}
		}
		if best < 0 {
			break
		}
		a, b := bounds[seg], bounds[seg+1]
		if !(newSplit(y[a:best], y[best:b]).p() < maxP) {
			break
		}
		bounds = slices.Insert(bounds, seg+1, best)
	}
	return bounds[1 : len(bounds)-1]
}

type changePoint struct {
	index int
	s     split
	p     float64
}

// mergeStep is Otava's merge: each weak point is tested between its
// neighbours; while the weakest has p ≥ MaxP, or all are significant but
// the smallest change is at most MinChange, that point goes and its
// neighbours are tested again.
func mergeStep(y []float64, weak []int, o Options) []changePoint {
	cps := make([]changePoint, len(weak))
	for i, w := range weak {
		cps[i].index = w
	}
	eval := func(i int) {
		if i < 0 || i >= len(cps) {
			return
		}
		lo, hi := 0, len(y)
		if i > 0 {
			lo = cps[i-1].index
		}
		if i+1 < len(cps) {
			hi = cps[i+1].index
		}
		c := &cps[i]
		c.s = newSplit(y[lo:c.index], y[c.index:hi])
		c.p = c.s.p()
	}
	for i := range cps {
		eval(i)
	}
	for len(cps) > 0 {
		worst := 0
		for i, c := range cps {
			if c.p > cps[worst].p {
				worst = i
			}
		}
		if cps[worst].p < o.MaxP {
			for i, c := range cps {
				if c.s.magnitude() < cps[worst].s.magnitude() {
					worst = i
				}
			}
			if cps[worst].s.magnitude() > o.MinChange {
				break
			}
		}
		cps = slices.Delete(cps, worst, worst+1)
		eval(worst - 1)
		eval(worst)
	}
	return cps
}
