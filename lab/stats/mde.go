package stats

import (
	"math"
	"sync"

	mstats "github.com/aclements/go-moremath/stats"
)

// Power is the detection probability the minimum detectable effect is
// computed for.
const Power = 0.80

// rankEfficiency is the factor by which a rank test needs more samples
// than a t-test on normal data (the asymptotic relative efficiency of the
// Wilcoxon and Mann-Whitney tests is 3/π).
var rankEfficiency = math.Pi / 3

// MDEPct is the minimum detectable effect, in percent: the smallest change
// that a test at level alpha detects with probability Power, given the
// relative noise sd (standard deviation of log values or log-ratios) and n
// pairs (paired) or n values per group (unpaired). It uses the normal
// approximation with Student t quantiles (n-1 or 2n-2 degrees of freedom)
// and the rank tests' efficiency 3/π. It is +Inf where the rank test
// cannot reach p <= alpha with n at all (Reachable: fewer than 6 pairs at
// 0.05), for no change is detectable there however large, and below 3
// values: with 2 (one degree of freedom) the t quantile makes it millions
// of percent, which says nothing a reader can use.
func MDEPct(sd float64, n int, alpha float64, paired bool) float64 {
	if n < 3 || math.IsNaN(sd) || !Reachable(n, alpha, paired) {
		return math.Inf(1)
	}
	df, se := float64(n-1), sd/math.Sqrt(float64(n))
	if !paired {
		df, se = float64(2*n-2), sd*math.Sqrt(2/float64(n))
	}
	d := (tQuantile(df, 1-alpha/2) + tQuantile(df, Power)) * se * math.Sqrt(rankEfficiency)
	return 100 * (math.Exp(d) - 1)
}

// PlanRounds is the number of rounds (pairs, or trials per variant) needed
// for a change of effectPct percent to be detected with probability Power
// at the final look of design d, given the relative noise sd; Min and Max
// of d are ignored except that the sequential looks start at min(Min, n).
// ok is false when even limit rounds would not do.
func PlanRounds(d Design, sd, effectPct float64, paired bool, limit int) (n int, ok bool) {
	reaches := func(n int) bool {
		dd := d
		dd.Max = n
		dd.Min = min(max(d.Min, 2), n)
		return MDEPct(sd, n, dd.NominalAlpha(n), paired) <= math.Abs(effectPct)
	}
	if !reaches(limit) {
		return limit, false
	}
	lo, hi := 1, limit // !reaches(lo) (or lo too small), reaches(hi)
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if reaches(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi, true
}

type quantileKey struct{ df, p float64 }

var quantiles sync.Map // quantileKey -> float64

// tQuantile is Student's t quantile (cached: inverting the CDF is slow).
func tQuantile(df, p float64) float64 {
	k := quantileKey{df, p}
	if q, ok := quantiles.Load(k); ok {
		return q.(float64)
	}
	q := mstats.InvCDF(mstats.TDist{V: df})(p)
	quantiles.Store(k, q)
	return q
}
