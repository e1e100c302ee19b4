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
		endsDiffer bool    // BAD vs GOOD significant
		level      Level
		settled    bool // before the last round
		why        string
	}{
		{"at GOOD's level", 100, 100, 600, true, Old, true, "differs from BAD (p=0.031), not from GOOD (p=0.5); at GOOD's level, 0% of the change"},
		{"at BAD's level", 100, 600, 600, true, New, true, "differs from GOOD (p=0.031), not from BAD (p=0.5); at BAD's level, 100% of the change"},
		{"an improvement, at BAD's level", 100, 40, 40, true, New, true, "at BAD's level, 100% of the change"},
		// A noisy step whose ends did not reach significance: the midpoint
		// differs from BAD and not from GOOD, so it is at GOOD's level.
		{"at GOOD's level, the ends not significant", 100, 100, 600, false, Old, true, "differs from BAD"},
		// Differs from GOOD significantly (a change of its own, or noise) but
		// is within a third of the change of it: still the old level.
		{"a small change of its own", 100, 120, 600, true, Old, true, "only a little from GOOD: at GOOD's level, 10% of the change"},
		{"a small change of its own, near BAD", 100, 500, 600, true, New, true, "only a little from BAD: at BAD's level, 90% of the change"},
		{"within a third of BAD", 100, 340, 600, true, New, true, "at BAD's level, 68% of the change"},
		{"between", 100, 250, 600, true, Unknown, true, "between the levels, at 51% of the change"},
		{"between, near a third", 100, 190, 600, true, Unknown, true, "between the levels, at 36% of the change"},
		{"beyond", 100, 1500, 600, true, Unknown, true, "beyond the ends' levels, at 151% of the change"},
		{"differs from both, the ends not", 100, 300, 105, false, Unknown, true, "differs from both ends (vs GOOD +200.0%, vs BAD +185.7%)"},
		{"the ends do not differ", 100, 105, 102, false, Unknown, false, "differs from neither end, and the ends do not differ in this step's rounds (BAD vs GOOD +2.0%, p=0.5 above 0.05"},
	} {
		c := Comparisons{VsGood: row(tc.g, tc.m), VsBad: row(tc.b, tc.m), Ends: row(tc.g, tc.b)}
		c.Ends.Significant = tc.endsDiffer
		d, settled := Decide(c, false)
		if d.Level != tc.level || settled != tc.settled || !strings.Contains(d.Why, tc.why) {
			t.Errorf("%s: %s %v %q, want %s %v and %q", tc.name, d.Level, settled, d.Why, tc.level, tc.settled, tc.why)
		}
		if d, settled := Decide(c, true); d.Level != tc.level || !settled {
			t.Errorf("%s, the last round: %s %v", tc.name, d.Level, settled)
		}
	}
	// Neither end differs from a midpoint (too noisy) while the ends do:
	// more rounds may tell; at the last round it cannot, and says to raise
	// --max-trials.
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
