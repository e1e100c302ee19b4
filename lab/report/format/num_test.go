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
