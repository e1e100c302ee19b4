package changepoint

import (
	"math"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestTTwoSided(t *testing.T) {
	cases := []struct{ t, df, want float64 }{
		{1, 1, 0.5}, // Cauchy: P(|T| > 1) = 1/2
		{2.828427124746190, 2, 1 - 2.828427124746190/math.Sqrt(10)}, // df 2: 1 − t/√(2+t²)
		{2.228138851986273, 10, 0.05},                               // t_{0.975, 10}
		{0, 5, 1},
		{math.Inf(1), 5, 0},
	}
	for _, c := range cases {
		if got := tTwoSided(c.t, c.df); !near(got, c.want, 1e-9) {
			t.Errorf("tTwoSided(%v, %v) = %v, want %v", c.t, c.df, got, c.want)
		}
	}
	// Far in the tail the p-value keeps its relative precision (1 − CDF
	// would round to 0): for df 2, 1 − t/√(2+t²) ≈ 1/t² for large t.
	if got := tTwoSided(1e6, 2); !near(got, 1e-12, 1e-15) {
		t.Errorf("tTwoSided(1e6, 2) = %v, want 1e-12", got)
	}
}

func TestTQuantile(t *testing.T) {
	if got := tQuantile(10, 0.975); !near(got, 2.228138851986273, 1e-9) {
		t.Errorf("tQuantile(10, 0.975) = %v", got)
	}
	if got := tQuantile(2, 0.975); !near(got, 4.302652729911275, 1e-9) {
		t.Errorf("tQuantile(2, 0.975) = %v", got)
	}
}

func TestStudentP(t *testing.T) {
	// Means 2 and 6, pooled variance 2, se √2, t = 2√2 on 2 df.
	s := newSplit([]float64{1, 3}, []float64{5, 7})
	if got, want := s.p(), 1-2*math.Sqrt2/math.Sqrt(10); !near(got, want, 1e-12) {
		t.Errorf("p = %v, want %v", got, want)
	}
	// An outlier among the last three points: Student's pooled variance
	// would give p ≈ 0.0005; with the short side's own variance it is
	// nothing.
	before := make([]float64, 37)
	for i := range before {
		before[i] = 100 + float64(i%5-2)
	}
	if got := newSplit(before, []float64{130, 100, 101}).p(); got < 0.1 {
		t.Errorf("outlier among 3: p = %v, want > 0.1", got)
	}
	if got := newSplit(before, []float64{110, 109, 111}).p(); got > 1e-6 {
		t.Errorf("a clean 10 %% step of 3 points: p = %v, want < 1e-6", got)
	}
	if got := newSplit([]float64{0.1, 0.1, 0.1}, []float64{0.1, 0.1, 0.1, 0.1}).p(); got != 1 {
		t.Errorf("equal constant sides: p = %v, want 1", got)
	}
	if got := newSplit([]float64{1, 1, 1}, []float64{2, 2, 2}).p(); got != 0 {
		t.Errorf("different constant sides: p = %v, want 0", got)
	}
}

func TestCI95(t *testing.T) {
	// Before has no variance: Fieller's interval is (mb ± q·se_b)/ma − 1
	// with q = t_{0.975, 2}.
	s := newSplit([]float64{10, 10, 10}, []float64{11, 12, 13})
	lo, hi := s.ci95()
	h := 4.302652729911275 * math.Sqrt(1.0/3) / 10
	if !near(lo, 0.2-h, 1e-9) || !near(hi, 0.2+h, 1e-9) {
		t.Errorf("CI = %v..%v, want %v..%v", lo, hi, 0.2-h, 0.2+h)
	}
	// Small noise: Fieller agrees with the delta method.
	s = newSplit([]float64{100, 101, 99, 100, 100.5}, []float64{103, 104, 102, 103, 103.5})
	lo, hi = s.ci95()
	if c := s.change(); !(lo < c && c < hi) || !near((lo+hi)/2, c, 1e-4) {
		t.Errorf("CI %v..%v around %v", lo, hi, c)
	}
	// Before indistinguishable from 0: finite (delta method).
	s = newSplit([]float64{-1, 1, -1, 1.1}, []float64{5, 6, 5})
	if lo, hi := s.ci95(); math.IsInf(lo, 0) || math.IsInf(hi, 0) || math.IsNaN(lo) || math.IsNaN(hi) || lo > hi {
		t.Errorf("CI with Before ≈ 0: %v..%v", lo, hi)
	}
	// Before exactly 0: the relative change is undefined, reported as 0.
	s = newSplit([]float64{0, 0, 0}, []float64{1, 2, 3})
	if lo, hi := s.ci95(); lo != 0 || hi != 0 || s.change() != 0 || !math.IsInf(s.magnitude(), 1) {
		t.Errorf("Before 0: CI %v..%v change %v magnitude %v", lo, hi, s.change(), s.magnitude())
	}
}
