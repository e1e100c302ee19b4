package changepoint

import (
	"math"

	"github.com/aclements/go-moremath/mathx"
	mstats "github.com/aclements/go-moremath/stats"
)

// moments of a segment, relative to a reference value: mean is the mean of
// x − ref and ss the sum of squared deviations from the mean. Taking the
// same ref (the first value of the left segment) for both sides of a split
// makes equal values exactly equal means and zero variances, whatever the
// rounding of their sum.
type moments struct {
	n        int
	mean, ss float64
}

func momentsOf(xs []float64, ref float64) moments {
	m := moments{n: len(xs)}
	if m.n == 0 {
		return m
	}
	for _, x := range xs {
		m.mean += x - ref
	}
	m.mean /= float64(m.n)
	for _, x := range xs {
		d := (x - ref) - m.mean
		m.ss += d * d
	}
	return m
}

// variance is the unbiased variance (0 for fewer than two values).
func (m moments) variance() float64 {
	if m.n < 2 {
		return 0
	}
	return m.ss / float64(m.n-1)
}

// split is the two sides of a change, before and after.
type split struct {
	ref    float64
	before moments
	after  moments
}

func newSplit(before, after []float64) split {
	ref := 0.0
	if len(before) > 0 {
		ref = before[0]
	}
	return split{ref: ref, before: momentsOf(before, ref), after: momentsOf(after, ref)}
}

func (s split) meanBefore() float64 { return s.ref + s.before.mean }
func (s split) meanAfter() float64  { return s.ref + s.after.mean }

// change is After/Before − 1, 0 when Before is 0 (undefined).
func (s split) change() float64 {
	b := s.meanBefore()
	if b == 0 {
		return 0
	}
	return s.meanAfter()/b - 1
}

// magnitude is |change|, +Inf when Before is 0 and After is not (any change
// from zero is relatively infinite, so MinChange never drops it).
func (s split) magnitude() float64 {
	if s.meanBefore() == 0 {
		if s.meanAfter() == 0 {
			return 0
		}
		return math.Inf(1)
	}
	return math.Abs(s.change())
}

// p is the two-sided p-value of the split's t-test: Student's two-sample
// t-test (pooled variance s², n_a + n_b − 2 degrees of freedom), except
// that each side's variance is taken as at least s²:
//
//	se² = max(s_a², s²)/n_a + max(s_b², s²)/n_b
//
// With equal variances this is Student's test, only a little more
// conservative. It differs where a short segment holds an outlier: a
// +30 % point among the last three makes their variance a hundred times the
// rest's, and Student's pooled variance, dominated by the long segment,
// would call their mean a change (p ≈ 0.0005); here their own variance
// counts and it is not. (Welch's test would also do that, but it is
// anti-conservative when a short segment is tight by chance, and with a
// few points its degrees of freedom leave no power.) Zero variance on both
// sides gives 1 for equal means and 0 for different ones.
func (s split) p() float64 {
	a, b := s.before, s.after
	df := float64(a.n + b.n - 2)
	if a.n == 0 || b.n == 0 || df < 1 {
		return 1
	}
	d := b.mean - a.mean
	pooled := (a.ss + b.ss) / df
	se := math.Sqrt(max(a.variance(), pooled)/float64(a.n) + max(b.variance(), pooled)/float64(b.n))
	if se == 0 || math.IsNaN(se) {
		if d == 0 {
			return 1
		}
		return 0
	}
	return tTwoSided(d/se, df)
}

// tTwoSided is P(|T| ≥ |t|) for Student's t with df degrees of freedom:
// the regularized incomplete beta I_{df/(df+t²)}(df/2, 1/2), which keeps
// its precision far in the tail.
func tTwoSided(t, df float64) float64 {
	if t == 0 {
		return 1
	}
	x := df / (df + t*t)
	if math.IsInf(t, 0) || x == 0 {
		return 0
	}
	return min(1, max(0, mathx.BetaInc(x, df/2, 0.5)))
}

// tQuantile is Student's t quantile.
func tQuantile(df, p float64) float64 {
	return mstats.InvCDF(mstats.TDist{V: df})(p)
}

// ci95 is the 95 % confidence interval of After/Before − 1: Fieller's
// interval for the ratio of the two independent means, with the
// Welch–Satterthwaite degrees of freedom of After − ρ·Before at the
// estimate ρ; the delta method's when Fieller's is unbounded (Before not
// significantly different from 0). It is [0, 0] when Before is 0 and a
// single value when neither side varies.
func (s split) ci95() (lo, hi float64) {
	ma, mb := s.meanBefore(), s.meanAfter()
	if ma == 0 {
		return 0, 0
	}
	rho := mb / ma
	va := s.before.variance() / float64(s.before.n)
	vb := s.after.variance() / float64(s.after.n)
	v := vb + rho*rho*va
	if v == 0 {
		return rho - 1, rho - 1
	}
	den := 0.0
	if s.after.n > 1 {
		den += vb * vb / float64(s.after.n-1)
	}
	if s.before.n > 1 {
		den += rho * rho * rho * rho * va * va / float64(s.before.n-1)
	}
	df := v * v / den
	q := tQuantile(df, 0.975)
	// (mb − ρ·ma)² ≤ q²·(vb + ρ²·va), a quadratic in ρ: a·ρ² + b·ρ + c ≤ 0.
	a := ma*ma - q*q*va
	if a > 0 {
		b := -2 * ma * mb
		c := mb*mb - q*q*vb
		disc := math.Sqrt(max(0, b*b-4*a*c))
		r1, r2 := (-b-disc)/(2*a), (-b+disc)/(2*a)
		return min(r1, r2) - 1, max(r1, r2) - 1
	}
	h := q * math.Sqrt(v) / math.Abs(ma)
	return rho - h - 1, rho + h - 1
}
