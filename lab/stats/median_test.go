package stats_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// Median, the centre of tables without an interval, is the centre the
// intervals are drawn around (Summarize's, benchmath's), for odd and even
// counts.
func TestMedianIsSummarizesCentre(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := 1; n <= 25; n++ {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = 100 + 50*r.NormFloat64()
		}
		s, _ := stats.Summarize(xs)
		if got := stats.Median(xs); math.Abs(got-s.Median) > 1e-9*math.Abs(s.Median) {
			t.Errorf("n=%d: Median %v, Summarize's %v", n, got, s.Median)
		}
	}
	if got := stats.Median(nil); got != 0 {
		t.Errorf("Median(nil) = %v, want 0", got)
	}
}
