package report

import (
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"

	"github.com/pgrst-lab/pgrst-lab/lab/report/chart"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// The limits chart draws each limit's interval: with intervals its SVG
// has a whisker (three more strokes: the line and two caps) per bar than
// with none; the memory chart, of single values, has none.
func TestLimitsChartDrawsIntervals(t *testing.T) {
	rows := stats.Limits(oneVariantRun())
	if len(rows) < 2 {
		t.Fatalf("%d limit rows", len(rows))
	}
	paths := func(withInterval bool) int {
		p, ok := limitsBars(rows, "t", "req/s", func(r stats.LimitRow) (float64, float64, float64) {
			if withInterval {
				lo, hi := limitInterval(r)
				return r.Rate.Median, lo, hi
			}
			return r.Rate.Median, r.Rate.Median, r.Rate.Median
		}, true)
		if !ok {
			t.Fatal("no chart")
		}
		svg, err := chart.Render(p, 6*vg.Inch, 3*vg.Inch)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Count(string(svg), "<path")
	}
	with, without := paths(true), paths(false)
	if with < without+3*len(rows) {
		t.Errorf("%d paths with intervals, %d without: want %d more (a whisker per limit)", with, without, 3*len(rows))
	}
	for _, r := range rows {
		if lo, hi := limitInterval(r); !(lo < r.Rate.Median && r.Rate.Median < hi) || lo != r.Min || hi != r.Max {
			t.Errorf("%s: interval %v–%v around %v, want the range of 3 trials %v–%v", r.Scenario, lo, hi, r.Rate.Median, r.Min, r.Max)
		}
	}
}
