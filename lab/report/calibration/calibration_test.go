package calibration_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/calibrate"
	"github.com/pgrst-lab/pgrst-lab/lab/report/calibration"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

func TestCalibrationReports(t *testing.T) {
	outs := []calibrate.Outcome{
		{EffectPct: 0, DeltaPct: 0.4, MDEPct: 3, Rounds: 10, Took: time.Minute},
		{EffectPct: 0, DeltaPct: -0.2, MDEPct: 3, Rounds: 10, Took: time.Minute},
		{EffectPct: 3, InjectUs: 31, Significant: true, Outcome: stats.Worse, DeltaPct: -3.2, MDEPct: 3, Rounds: 9, Took: time.Minute},
		{EffectPct: 3, InjectUs: 31, DeltaPct: -1.1, MDEPct: 3, Rounds: 10, Took: time.Minute},
	}
	res := &calibrate.Result{Experiment: "socket-vs-tcp", Design: "paired Wilcoxon signed-rank", AARuns: 2, Effects: []calibrate.Effect{{Pct: 3, Runs: 2}},
		Trials: lab.Trials{Min: 5, Max: 10, Alpha: 0.05, Order: lab.OrderInterleaved}, Rows: calibrate.Tally(outs), Outcomes: outs,
		Load: lab.Load{Model: lab.ModelClosed, Connections: 10, Duration: 8 * time.Second}, Stopped: "interrupted"}
	var md, page, term bytes.Buffer
	if err := calibration.Markdown(&md, res); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# Calibration of socket-vs-tcp", "| A/A | none | 2 | 0/2 = 0%", "| 3% | 31 µs | 2 | 1/2 = 50%", "-2.2%", "Stopped early"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md.String())
		}
	}
	if err := calibration.HTML(&page, res); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page.String(), "<svg") || !strings.Contains(page.String(), "Power curve") || !strings.Contains(page.String(), "1/2 = 50%") {
		t.Errorf("html lacks the chart or the table")
	}
	calibration.Text(&term, res)
	if lines := strings.Split(strings.TrimSpace(term.String()), "\n"); len(lines) != 3 {
		t.Errorf("table: %d lines, want header + 2:\n%s", len(lines), term.String())
	}
}

// A calibration that compared designs has a design column, a curve per
// design and the per-minute comparison.
func TestCalibrationReportsCompareDesigns(t *testing.T) {
	outs := []calibrate.Outcome{
		{Design: lab.OrderInterleaved, DeltaPct: 0.4, MDEPct: 4, Rounds: 24, Took: 9 * time.Minute},
		{Design: lab.OrderDuet, DeltaPct: -0.2, MDEPct: 2.5, Rounds: 24, Took: 4 * time.Minute},
	}
	res := &calibrate.Result{Experiment: "socket-vs-tcp", AARuns: 1, Trials: lab.Trials{Min: 6, Max: 24, Alpha: 0.05},
		Rows: calibrate.Tally(outs), Outcomes: outs, Load: lab.Load{Model: lab.ModelEfficiency, Duration: 8 * time.Second}}
	var md, page, term bytes.Buffer
	if err := calibration.Markdown(&md, res); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"designs compared, alternately: interleaved, duet", "| design | effect |", "| duet | A/A |", "## Designs per minute", "| duet | 1 | ±2.5% | 4.0 | ±5.0% | 25.0 |",
		"More sensitive per minute: duet (the other needs 5.8x the minutes"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md.String())
		}
	}
	if err := calibration.HTML(&page, res); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page.String(), "duet: detected") || !strings.Contains(page.String(), "duet A/A") {
		t.Errorf("html lacks the duet's curve or row")
	}
	calibration.Text(&term, res)
	if !strings.Contains(term.String(), "interleaved: MDE ±4.0% in 9.0 min (1 A/A runs) = ±12.0% in one minute") {
		t.Errorf("table lacks the comparison:\n%s", term.String())
	}
}
