package stats_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// A memory that grows 36 MB an hour under sawtooth noise (a GC cycle)
// and random noise: the slope is found and its interval holds the truth
// and excludes zero; a flat one's interval holds zero; 95 % intervals of
// many noisy flat series miss zero about 5 % of the time.
func TestGrowthOfFindsTheSlopeAndItsInterval(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	series := func(perHour float64) ([]float64, []float64) {
		var ts, vs []float64
		for i := range 6000 { // 10 minutes at 10 Hz
			x := float64(i) / 10
			ts = append(ts, x)
			vs = append(vs, 50e6+perHour*x/3600+2e6*math.Mod(x, 7)/7+1e5*r.NormFloat64())
		}
		return ts, vs
	}
	ts, vs := series(36e6)
	g, ok := stats.GrowthOf(ts, vs, 0.05)
	if !ok || g.Lo > 36e6 || g.Hi < 36e6 || g.Lo <= 0 || math.Abs(g.PerHour-36e6) > 6e6 {
		t.Errorf("growing: %+v (ok %v), want about 36e6/h with an interval around it above 0", g, ok)
	}
	if g.Bins != stats.GrowthBins || g.Seconds < 599 {
		t.Errorf("bins %d over %v s, want %d over 600 s", g.Bins, g.Seconds, stats.GrowthBins)
	}
	miss := 0
	const runs = 400
	for range runs {
		var ts, vs []float64
		for i := range 300 {
			ts, vs = append(ts, float64(i)), append(vs, 1e6*r.NormFloat64())
		}
		g, _ := stats.GrowthOf(ts, vs, 0.05)
		if g.Lo > 0 || g.Hi < 0 {
			miss++
		}
	}
	if miss < 5 || miss > 40 { // 20 expected; binomial 99.9 % range
		t.Errorf("flat noise: %d of %d 95 %% intervals missed 0, want about 20", miss, runs)
	}
	if _, ok := stats.GrowthOf([]float64{1, 2, 3}, []float64{1, 2, 3}, 0.05); ok {
		t.Error("three samples gave a growth")
	}
	tr := lab.Trial{}
	for i := range 100 {
		tr.Server.Samples = append(tr.Server.Samples, lab.UsageSample{T: float64(i), RSS: uint64(1e6 + 100*i)})
	}
	if g, ok := stats.RSSGrowth(tr, 0.05); !ok || math.Abs(g.PerHour-360000) > 1 {
		t.Errorf("RSS +100 B/s: %+v, want 360000 B/h", g)
	}
}
