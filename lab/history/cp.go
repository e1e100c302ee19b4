package history

import "github.com/pgrst-lab/pgrst-lab/lab/changepoint"

// The change point detector (lab/changepoint).
type (
	cpOptions = changepoint.Options
	cpPoint   = changepoint.Point
)

var detect = changepoint.Detect

// mean and ssq are the mean and the sum of squared deviations from m.
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
