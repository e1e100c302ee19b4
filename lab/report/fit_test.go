package report_test

import (
	"bytes"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
	"github.com/pgrst-lab/pgrst-lab/lab/stats/statstest"
)

type fitResult = labtest.FitResult

// fitAt loads page at width × 900 px (labtest.FitAt).
func fitAt(t *testing.T, page []byte, width string) fitResult {
	t.Helper()
	return labtest.FitAt(t, page, width)
}

// fitLimitsRun is a limits run of two servers on the thread's scenarios,
// the long names included.
func fitLimitsRun() *lab.Run {
	return statstest.Run(statstest.Spec{Experiment: "limits", Scenarios: []string{"GETSingle", "GETSingleEmbed", "GETAllEmbed", "POSTSingle"},
		Trials: 3, Noise: 0.2, Seed: 3, Detail: true, Model: lab.ModelSearch,
		Variants: []statstest.Variant{{Name: "v14.17", Baseline: true, Rate: 2100, P50Ms: 4, ServerUs: 400, DBUs: 300, RSSMB: 60}}})
}

// Issue 54: a limits run's, a two-variant comparison's and a sweep's
// report.html fit a 1280 px window (no page-wide horizontal scroll: wide
// tables scroll in their own box), no chart's label leaves its SVG, and
// the page logs no error.
func TestHTMLFits1280(t *testing.T) {
	two := statstest.Run(statstest.Spec{Experiment: "ab", Scenarios: []string{"GETSingle", "GETSingleEmbed"}, Trials: 8, Noise: 0.03, Seed: 5, Detail: true,
		Variants: []statstest.Variant{{Name: "postgrest-13.0.8", Baseline: true, Rate: 900, P50Ms: 2, ServerUs: 400, DBUs: 300, RSSMB: 60},
			{Name: "postgrest-14.17", Rate: 1000, P50Ms: 1.8, ServerUs: 380, DBUs: 300, RSSMB: 62}}})
	runs := map[string]*lab.Run{"limits": fitLimitsRun(), "comparison": two,
		"sweep": statstest.PoolSweep([]float64{1000, 1500, 2400, 2410, 2405, 2400}, 0.02, 2, "")}
	for name, run := range runs {
		var b bytes.Buffer
		if err := report.HTML(&b, run, stats.Compare(run, 0.05)); err != nil {
			t.Fatal(err)
		}
		r := fitAt(t, b.Bytes(), "1280")
		t.Logf("%s: scrollWidth %d, window %d, %d SVG texts", name, r.ScrollWidth, r.InnerWidth, r.Texts)
		if r.InnerWidth != 1280 || r.ScrollWidth > r.InnerWidth {
			t.Errorf("%s: the page is %d px wide in a %d px window", name, r.ScrollWidth, r.InnerWidth)
		}
		if r.Texts == 0 {
			t.Errorf("%s: no SVG text measured: the charts are missing", name)
		}
		for _, c := range r.Clipped {
			t.Errorf("%s: label outside its chart: %s", name, c)
		}
		for _, e := range r.Errors {
			t.Errorf("%s: page error: %s", name, e)
		}
	}
}
