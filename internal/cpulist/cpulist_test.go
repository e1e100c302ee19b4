package cpulist

import (
	"slices"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for in, want := range map[string][]int{"0": {0}, "0,2-3": {0, 2, 3}, "1 3": {1, 3}, "1,1": {1}, "3,0-1": {3, 0, 1}, "0, 2": {0, 2}} {
		if got, err := Parse(in); err != nil || !slices.Equal(got, want) {
			t.Errorf("%q: %v %v, want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", " ", "x", "3-1", "-1", "0,2048", "1-", "1-2-3"} {
		if _, err := Parse(bad); err == nil || !strings.Contains(err.Error(), "is not a CPU list") {
			t.Errorf("%q: err %v", bad, err)
		}
	}
}

// Format writes what Parse reads back.
func TestFormatRoundTrips(t *testing.T) {
	for _, cpus := range [][]int{{0}, {0, 1, 4}, {3, 0}, {MaxCPU}} {
		s := Format(cpus)
		if got, err := Parse(s); err != nil || !slices.Equal(got, cpus) {
			t.Errorf("Format(%v) = %q, read back as %v %v", cpus, s, got, err)
		}
	}
	if got := Format([]int{0, 1, 4}); got != "0,1,4" {
		t.Errorf("Format = %q, want 0,1,4", got)
	}
}
