package changepoint

import (
	"math"
	"math/rand/v2"
	"testing"
)

// naiveQhat is Matteson and James's Q̂ straight from its definition.
func naiveQhat(x, y []float64) float64 {
	n, m := float64(len(x)), float64(len(y))
	cross, wx, wy := 0.0, 0.0, 0.0
	for _, a := range x {
		for _, b := range y {
			cross += math.Abs(a - b)
		}
	}
	for i := range x {
		for k := i + 1; k < len(x); k++ {
			wx += math.Abs(x[i] - x[k])
		}
	}
	for j := range y {
		for k := j + 1; k < len(y); k++ {
			wy += math.Abs(y[j] - y[k])
		}
	}
	// mn/(m+n) · (2·mean|X−Y| − mean_{i<k}|X_i−X_k| − mean_{j<k}|Y_j−Y_k|)
	e := 2 * cross / (n * m)
	if n > 1 {
		e -= wx / (n * (n - 1) / 2)
	}
	if m > 1 {
		e -= wy / (m * (m - 1) / 2)
	}
	return n * m / (n + m) * e
}

func TestQhatMatchesDefinition(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	y := make([]float64, 17)
	for i := range y {
		y[i] = r.NormFloat64()
		if i >= 9 {
			y[i] += 1
		}
	}
	d := newDistances(y)
	for a := range len(y) {
		for tau := a + 1; tau < len(y); tau++ {
			for kappa := tau + 1; kappa <= len(y); kappa++ {
				got, want := d.qhat(a, tau, kappa), naiveQhat(y[a:tau], y[tau:kappa])
				if math.Abs(got-want) > 1e-12*(1+math.Abs(want)) {
					t.Fatalf("qhat(%d, %d, %d) = %v, want %v", a, tau, kappa, got, want)
				}
			}
		}
	}
}

func TestBestSplitFindsStep(t *testing.T) {
	y := []float64{0, 0.1, -0.1, 0, 0.05, 1, 1.1, 0.9, 1, 1.05}
	tau, q, ok := newDistances(y).bestSplit(0, len(y), 3)
	if !ok || tau != 5 || q <= 0 {
		t.Fatalf("bestSplit = %d, %v, %v; want 5, > 0, true", tau, q, ok)
	}
	if _, _, ok := newDistances(y).bestSplit(0, 5, 3); ok {
		t.Fatal("a segment of 5 points split with MinSegment 3")
	}
}
