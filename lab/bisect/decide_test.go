package bisect

import (
	"strings"
	"testing"
)

// Decide places a midpoint by the two tests and by where it lies between
// the levels; what more rounds could change is unsettled until the last.
func TestDecide(t *testing.T) {
	for _, tc := range []struct {
		name       string
		g, m, b    float64 // the levels of GOOD, the midpoint, BAD
		level      Level
		settled    bool // before the last round
		why        string
		finalLevel Level
	}{
		{"at GOOD's level", 100, 100, 600, Old, true, "differs from BAD", Old},
		{"at BAD's level", 100, 600, 600, New, true, "differs from GOOD", New},
		{"an improvement, at BAD's level", 100, 40, 40, New, true, "at BAD's level, 100% of the change", New},
		// Differs from GOOD significantly (a change of its own) but is within
		// a quarter of the change of it: still the old level.
		{"a small change of its own", 100, 120, 600, Old, true, "at GOOD's level, 10% of the change", Old},
		{"between", 100, 250, 600, Unknown, true, "between the levels, at 51% of the change", Unknown},
		{"beyond", 100, 1500, 600, Unknown, true, "beyond the ends' levels, at 151% of the change", Unknown},
		{"the ends do not differ", 100, 105, 102, Unknown, false, "the ends do not differ in this step's rounds (BAD vs GOOD +2.0%, p=0.5 above 0.05", Unknown},
	} {
		c := Comparisons{VsGood: row(tc.g, tc.m), VsBad: row(tc.b, tc.m), Ends: row(tc.g, tc.b)}
		d, settled := Decide(c, false)
		if d.Level != tc.level || settled != tc.settled || !strings.Contains(d.Why, tc.why) {
			t.Errorf("%s: %s %v %q, want %s %v and %q", tc.name, d.Level, settled, d.Why, tc.level, tc.settled, tc.why)
		}
		if d, settled := Decide(c, true); d.Level != tc.finalLevel || !settled {
			t.Errorf("%s, the last round: %s %v", tc.name, d.Level, settled)
		}
	}
	// Neither end differs from a midpoint (too noisy): more rounds may
	// tell; at the last round it cannot, and says to raise --max-trials.
	c := Comparisons{VsGood: row(100, 100), VsBad: row(130, 100), Ends: row(100, 130)}
	c.VsBad.Significant = false
	if d, settled := Decide(c, false); settled || d.Level != Unknown {
		t.Errorf("noisy, not the last round: %s %v", d.Level, settled)
	}
	if d, settled := Decide(c, true); !settled || d.Level != Unknown || !strings.Contains(d.Why, "differs from neither end clearly after 6 rounds") || !strings.Contains(d.Why, "--max-trials") {
		t.Errorf("noisy, the last round: %s %v %q", d.Level, settled, d.Why)
	}
	// No valid trial of the midpoint.
	c = Comparisons{VsGood: row(100, 100), VsBad: row(600, 100), Ends: row(100, 600)}
	c.VsGood.Variant.N, c.VsGood.BaselineName, c.VsGood.VariantName = 0, "good", "mid"
	if d, _ := Decide(c, true); d.Level != Unknown || !strings.Contains(d.Why, "no valid trial of good or mid") {
		t.Errorf("no trials: %s %q", d.Level, d.Why)
	}
}
