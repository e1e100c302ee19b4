package stats

import (
	"math"
	"sync"

	mstats "github.com/aclements/go-moremath/stats"
)

// Design is how a run's verdicts are tested: the looks the run loop takes
// (after every round from Min to Max) and the overall alpha.
type Design struct {
	Min, Max int
	Alpha    float64
	// Sequential spends alpha over the looks (Lan-DeMets, O'Brien-Fleming
	// type), so that stopping at the first significant look keeps the
	// false-positive rate at or below Alpha. Without it every look tests
	// at Alpha (the naive rule, whose error rate grows with the looks).
	Sequential bool
}

// OBFSpending is the Lan-DeMets alpha-spending function of O'Brien-Fleming
// type for a two-sided test: the share of alpha spent by information
// fraction t, 2 - 2Φ(z_{1-α/2}/√t).
func OBFSpending(alpha, t float64) float64 {
	if t <= 0 {
		return 0
	}
	if t >= 1 {
		return alpha
	}
	z := mstats.StdNormal.InvCDF(1 - alpha/2)
	return 2 * (1 - mstats.StdNormal.CDF(z/math.Sqrt(t)))
}

// NominalAlpha is the p-value threshold of the look after `rounds` rounds.
// For a sequential design it comes from the group-sequential boundary of
// that look (see Boundaries); rounds before Min count as a first look at
// their information fraction, rounds past Max as the last look. A fixed
// design (Min == Max, or not Sequential) tests at Alpha.
func (d Design) NominalAlpha(rounds int) float64 {
	if !d.Sequential || d.Max <= d.Min || d.Min < 1 {
		return d.Alpha
	}
	if rounds < d.Min {
		return OBFSpending(d.Alpha, float64(rounds)/float64(d.Max))
	}
	looks := make([]int, 0, d.Max-d.Min+1)
	for n := d.Min; n <= d.Max; n++ {
		looks = append(looks, n)
	}
	b := Boundaries(looks, d.Alpha)
	k := min(rounds, d.Max) - d.Min
	return 2 * (1 - mstats.StdNormal.CDF(b[k]))
}

type boundaryKey struct {
	looks string
	alpha float64
}

var boundaryCache sync.Map // boundaryKey -> []float64

// Boundaries returns the two-sided group-sequential critical values c_k
// (|Z_k| >= c_k rejects at look k) for looks after looks[k] observations
// (increasing, the last being the maximum), spending alpha with
// OBFSpending. They are computed by recursive numerical integration of the
// joint distribution of the standardised statistics (Armitage, McPherson
// and Rowe 1969; Jennison and Turnbull 2000, ch. 19): Z_k = S_k/√n_k where
// S is a sum of independent standard normal increments.
func Boundaries(looks []int, alpha float64) []float64 {
	key := boundaryKey{fmtInts(looks), alpha}
	if b, ok := boundaryCache.Load(key); ok {
		return b.([]float64)
	}
	b := computeBoundaries(looks, alpha)
	boundaryCache.Store(key, b)
	return b
}

const (
	gridPoints = 201 // points of the density grid per look
	maxCrit    = 8.0 // a boundary beyond this spends nothing measurable
)

func computeBoundaries(looks []int, alpha float64) []float64 {
	nmax := float64(looks[len(looks)-1])
	crit := make([]float64, len(looks))
	var xs, fs []float64 // grid of S_{k-1} within the continuation region, and its density
	prevSpent := 0.0
	prevN := 0.0
	for k, nk := range looks {
		n := float64(nk)
		spend := OBFSpending(alpha, n/nmax) - prevSpent
		if k == 0 {
			crit[0] = math.Min(maxCrit, mstats.StdNormal.InvCDF(1-spend/2))
		} else {
			sd := math.Sqrt(n - prevN)
			cross := func(c float64) float64 {
				lim := c * math.Sqrt(n)
				g := make([]float64, len(xs))
				for i, u := range xs {
					g[i] = fs[i] * (1 - mstats.StdNormal.CDF((lim-u)/sd) + mstats.StdNormal.CDF((-lim-u)/sd))
				}
				return trapezoid(xs, g)
			}
			lo, hi := 0.0, maxCrit
			if cross(hi) >= spend {
				crit[k] = maxCrit
			} else {
				for range 60 {
					mid := (lo + hi) / 2
					if cross(mid) > spend {
						lo = mid
					} else {
						hi = mid
					}
				}
				crit[k] = hi
			}
		}
		prevSpent += spend
		// Density of S_k on the continuation region |S_k| < c_k √n_k.
		lim := crit[k] * math.Sqrt(n)
		nx := make([]float64, gridPoints)
		nf := make([]float64, gridPoints)
		for i := range nx {
			nx[i] = -lim + 2*lim*float64(i)/float64(gridPoints-1)
		}
		if k == 0 {
			for i, s := range nx {
				nf[i] = mstats.StdNormal.PDF(s/math.Sqrt(n)) / math.Sqrt(n)
			}
		} else {
			sd := math.Sqrt(n - prevN)
			g := make([]float64, len(xs))
			for i, s := range nx {
				for j, u := range xs {
					g[j] = fs[j] * mstats.StdNormal.PDF((s-u)/sd) / sd
				}
				nf[i] = trapezoid(xs, g)
			}
		}
		xs, fs, prevN = nx, nf, n
	}
	return crit
}

func trapezoid(xs, ys []float64) float64 {
	var s float64
	for i := 1; i < len(xs); i++ {
		s += (xs[i] - xs[i-1]) * (ys[i] + ys[i-1]) / 2
	}
	return s
}

func fmtInts(xs []int) string {
	b := make([]byte, 0, 4*len(xs))
	for _, x := range xs {
		b = append(b, byte(x>>8), byte(x), ',')
	}
	return string(b)
}
