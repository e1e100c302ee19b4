package format

import (
	"math"
	"testing"
)

func TestNum(t *testing.T) {
	for _, c := range []struct {
		v      float64
		digits int
		want   string
	}{
		{2371.4, 3, "2371"}, {123.4, 3, "123"}, {12.34, 3, "12.3"}, {1.234, 3, "1.23"}, {0.1234, 3, "0.123"}, {0.001234, 3, "0.0012"},
		{0, 3, "0"}, {-12.34, 3, "-12.3"}, {math.NaN(), 3, "?"}, {math.Inf(1), 3, "∞"},
		{2371.4, 4, "2371"}, {123.45, 4, "123.5"}, {12.345, 4, "12.35"}, {1.2345, 4, "1.234"}, {0.1234, 4, "0.123"},
	} {
		if got := Num(c.v, c.digits); got != c.want {
			t.Errorf("Num(%v, %d) = %q, want %q", c.v, c.digits, got, c.want)
		}
	}
}

// Share writes a percentage as people write one, without the float's
// noise (100 × 1e-6 = 9.999999999999999e-05).
func TestShare(t *testing.T) {
	for _, c := range []struct {
		f    float64
		want string
	}{
		{1e-6, "0.0001 %"}, {0.001, "0.1 %"}, {0.01, "1 %"}, {0.07, "7 %"}, {0.123456789, "12.3457 %"}, {0, "0 %"}, {1, "100 %"},
		{1e-9, "0.0000001 %"}, {math.NaN(), "? %"},
	} {
		if got := Share(c.f); got != c.want {
			t.Errorf("Share(%v) = %q, want %q", c.f, got, c.want)
		}
	}
}
