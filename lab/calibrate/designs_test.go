package calibrate

import (
	"math"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

func TestDesignsComparesPerMinute(t *testing.T) {
	outs := []Outcome{
		{Design: lab.OrderInterleaved, MDEPct: 4, Rounds: 24, Took: 9 * time.Minute, DeltaPct: 0.5},
		{Design: lab.OrderDuet, MDEPct: 2, Rounds: 24, Took: 4 * time.Minute, DeltaPct: -0.2},
		{Design: lab.OrderInterleaved, MDEPct: 4, Rounds: 24, Took: 9 * time.Minute, DeltaPct: 0.1},
		{Design: lab.OrderDuet, MDEPct: 2, Rounds: 24, Took: 4 * time.Minute, DeltaPct: 0.3, Significant: true, Outcome: "better"},
		{Design: lab.OrderDuet, EffectPct: 2, MDEPct: 2, Rounds: 24, Took: 4 * time.Minute, DeltaPct: 2, Significant: true, Outcome: "worse"},
	}
	rows := Tally(outs)
	if len(rows) != 3 || rows[0].Design != lab.OrderInterleaved || rows[1].Design != lab.OrderDuet || rows[2].EffectPct != 2 {
		t.Fatalf("rows %+v; want interleaved A/A, duet A/A, duet 2%%", rows)
	}
	if rows[1].Hits != 1 || rows[1].Runs != 2 {
		t.Errorf("duet A/A: %d of %d; want 1 false positive of 2", rows[1].Hits, rows[1].Runs)
	}
	ds := Designs(rows)
	if len(ds) != 2 {
		t.Fatalf("designs %+v", ds)
	}
	if got := ds[0].MDEMinute; math.Abs(got-12) > 1e-9 { // 4 x sqrt(9)
		t.Errorf("interleaved: MDE in one minute %v; want 12", got)
	}
	if got := ds[1].MinutesFor1; math.Abs(got-16) > 1e-9 { // 4 min x 2^2
		t.Errorf("duet: minutes for 1%% %v; want 16", got)
	}
	best, factor, ok := Best(ds)
	if !ok || best.Design != lab.OrderDuet || math.Abs(factor-9) > 1e-9 { // (12/4)^2
		t.Errorf("best %s, factor %v; want duet, 9x fewer minutes", best.Design, factor)
	}
	if Designs(rows[2:]) != nil {
		t.Error("one design: want no comparison")
	}
}
