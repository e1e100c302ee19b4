package changepoint

import "math"

// distances holds, for a window y, the sums of the pairwise distances
// within every segment: W(a, b) = Σ_{a≤i<j<b} |y_i − y_j|. From it the
// cross sum between two adjacent segments is W(a, κ) − W(a, τ) − W(τ, κ),
// so E-Divisive's Q̂ of any split costs O(1).
type distances struct {
	n int
	w []float64 // (n+1)×(n+1), w[a*(n+1)+b] = W(a, b)
}

func newDistances(y []float64) *distances {
	n := len(y)
	d := &distances{n: n, w: make([]float64, (n+1)*(n+1))}
	for j := range n {
		// W(a, j+1) = W(a, j) + Σ_{a≤i<j} |y_i − y_j|
		acc := 0.0
		for a := j - 1; a >= 0; a-- {
			acc += math.Abs(y[a] - y[j])
			d.w[a*(n+1)+j+1] = d.w[a*(n+1)+j] + acc
		}
	}
	return d
}

func (d *distances) within(a, b int) float64 { return d.w[a*(d.n+1)+b] }

// qhat is Matteson and James's Q̂ of X = y[a:τ] and Y = y[τ:κ]:
//
//	2/(n+m)·Σ|X_i−Y_j| − 2m/((n+m)(n−1))·Σ_{i<k}|X_i−X_k| − 2n/((n+m)(m−1))·Σ_{j<k}|Y_j−Y_k|
//
// with n = τ−a and m = κ−τ (a within term is 0 for a single point).
func (d *distances) qhat(a, tau, kappa int) float64 {
	n, m := float64(tau-a), float64(kappa-tau)
	wx, wy := d.within(a, tau), d.within(tau, kappa)
	cross := d.within(a, kappa) - wx - wy
	q := 2 * cross / (n + m)
	if n > 1 {
		q -= 2 * m / ((n + m) * (n - 1)) * wx
	}
	if m > 1 {
		q -= 2 * n / ((n + m) * (m - 1)) * wy
	}
	return q
}

// bestSplit is E-Divisive's candidate in the segment y[a:b]: the τ of the
// pair (τ, κ), a+minSeg ≤ τ ≤ κ−minSeg, κ ≤ b, that maximises Q̂, and that
// maximum. The first maximum wins ties (smallest τ, then κ), so the result
// is deterministic. ok is false when the segment is too short to split.
func (d *distances) bestSplit(a, b, minSeg int) (tau int, q float64, ok bool) {
	q = math.Inf(-1)
	for t := a + minSeg; t <= b-minSeg; t++ {
		for k := t + minSeg; k <= b; k++ {
			if v := d.qhat(a, t, k); v > q {
				tau, q, ok = t, v, true
			}
		}
	}
	return tau, q, ok
}
