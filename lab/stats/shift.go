package stats

import (
	"math"
	"slices"
)

// ShiftCI is the Hodges–Lehmann interval of the change in percent between
// two unpaired samples, the one that goes with the Mann-Whitney test: the
// pairwise ratios other[j]/base[i] sorted, the bounds the order
// statistics the test's critical value picks (normal approximation of U),
// the estimate their median. It excludes 0 exactly when the test at that
// confidence would find a difference (ties aside), so an interval and a
// p-value stated together agree; the medians' intervals combined
// (Row.DiffCI) are wider and do not. ok is false when a sample has fewer
// than two values or a value is not positive, or when the samples are too
// small for any interval at conf (then lo and hi are infinite).
func ShiftCI(base, other []float64, conf float64) (est, lo, hi float64, ok bool) {
	m, n := len(base), len(other)
	if m < 2 || n < 2 {
		return math.NaN(), math.Inf(-1), math.Inf(1), false
	}
	d := make([]float64, 0, m*n)
	for _, x := range base {
		for _, y := range other {
			if x <= 0 || y <= 0 {
				return math.NaN(), math.Inf(-1), math.Inf(1), false
			}
			d = append(d, math.Log(y/x))
		}
	}
	slices.Sort(d)
	pct := func(l float64) float64 { return 100 * (math.Exp(l) - 1) }
	mid := len(d) / 2
	est = d[mid]
	if len(d)%2 == 0 {
		est = (d[mid-1] + d[mid]) / 2
	}
	mn := float64(m * n)
	sd := math.Sqrt(mn * float64(m+n+1) / 12)
	k := int(math.Floor(mn/2 - zQuantile(1-(1-conf)/2)*sd + 0.5)) // the k-th smallest and largest
	if k < 1 {
		return pct(est), math.Inf(-1), math.Inf(1), false
	}
	return pct(est), pct(d[k-1]), pct(d[len(d)-k]), true
}

// zQuantile is the standard normal distribution's quantile at p.
func zQuantile(p float64) float64 { return math.Sqrt2 * math.Erfinv(2*p-1) }

// ShiftCI is the row's Hodges–Lehmann change and its interval (ShiftCI)
// at the confidence its verdict was judged at (1 − Threshold), from the
// trials' values: the interval that agrees with the row's Mann-Whitney
// p-value.
func (r Row) ShiftCI() (est, lo, hi float64, ok bool) {
	conf := 0.95
	if r.Threshold > 0 && r.Threshold < 1 {
		conf = 1 - r.Threshold
	}
	return ShiftCI(r.Baseline.Values, r.Variant.Values, conf)
}
