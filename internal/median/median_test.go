package median

import (
	"slices"
	"testing"
)

func TestOf(t *testing.T) {
	for _, tc := range []struct {
		in   []float64
		want float64
	}{
		{nil, 0},
		{[]float64{7}, 7},
		{[]float64{3, 1, 2}, 2},
		{[]float64{4, 1, 3, 2}, 2.5},
		{[]float64{5, 5, 1, 9, 5}, 5},
		{[]float64{-2, 10}, 4},
	} {
		in := slices.Clone(tc.in)
		if got := Of(in); got != tc.want {
			t.Errorf("Of(%v) = %v, want %v", tc.in, got, tc.want)
		}
		if !slices.Equal(in, tc.in) {
			t.Errorf("Of(%v) reordered its input to %v", tc.in, in)
		}
	}
}
