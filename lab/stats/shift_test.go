package stats

import (
	"math"
	"math/rand/v2"
	"testing"

	"golang.org/x/perf/benchmath"
)

func TestShiftCIOfAKnownShift(t *testing.T) {
	base := []float64{100, 101, 102, 103, 104, 105}
	other := make([]float64, len(base))
	for i, v := range base {
		other[i] = v * 1.1
	}
	est, lo, hi, ok := ShiftCI(base, other, 0.95)
	if !ok || math.Abs(est-10) > 1e-9 || lo <= 0 || hi <= lo || lo > 10 || hi < 10 {
		t.Fatalf("ShiftCI = %.3f [%.3f, %.3f] %v, want 10 inside a positive interval", est, lo, hi, ok)
	}
	// Three against three: the smallest two-sided p of the U test is 0.1,
	// so there is no 95 % interval.
	if _, _, _, ok := ShiftCI(base[:3], other[:3], 0.95); ok {
		t.Error("3+3 values gave a 95 % interval the U test cannot support")
	}
}

// The interval excludes 0 exactly when the Mann-Whitney test (benchmath's,
// the verdicts') finds a difference at the same level.
func TestShiftCIAgreesWithTheTest(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	disagree, n := 0, 400
	for i := 0; i < n; i++ {
		shift := 1 + 0.08*rng.Float64()
		var a, b []float64
		for j := 0; j < 6; j++ {
			a = append(a, 1000*(1+0.05*rng.NormFloat64()))
			b = append(b, 1000*shift*(1+0.05*rng.NormFloat64()))
		}
		th := benchmath.Thresholds{CompareAlpha: 0.05}
		p := benchmath.AssumeNothing.Compare(benchmath.NewSample(append([]float64(nil), a...), &th),
			benchmath.NewSample(append([]float64(nil), b...), &th)).P
		_, lo, hi, ok := ShiftCI(a, b, 0.95)
		if !ok {
			t.Fatal("no interval of 6+6 values")
		}
		if (p <= 0.05) != (lo > 0 || hi < 0) {
			disagree++
		}
	}
	t.Logf("%d of %d disagreed", disagree, n)
	if disagree > n/50 {
		t.Errorf("the interval and the U test disagreed in %d of %d samples", disagree, n)
	}
}
