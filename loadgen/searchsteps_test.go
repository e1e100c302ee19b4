package loadgen

import "testing"

// A search from 10 req/s to a capacity of 2,000 doubles to 2,560 (9 steps)
// and bisects between 1,280 and 2,560 to 5 %; from 80 % of the capacity it
// takes far fewer steps; neither exceeds MaxSearchSteps.
func TestSearchStepsTo(t *testing.T) {
	lim := Limit{}
	first := SearchStepsTo(10, lim, 2000)
	again := SearchStepsTo(1600, lim, 2000)
	most := MaxSearchSteps(10, lim)
	if first < 9 || first > most || again >= first || again < 3 {
		t.Errorf("steps: first %d, again %d, most %d", first, again, most)
	}
	if n := SearchStepsTo(10, Limit{MaxRate: 40}, 2000); n != 3 {
		t.Errorf("a search capped at 40 req/s from 10 takes %d steps, want 3 (10, 20, 40)", n)
	}
}
