package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
	"github.com/pgrst-lab/pgrst-lab/lab/stats/statstest"
)

// An efficiency run whose trials carry the machine's speed reference: every
// report says the CPU headline was speed-adjusted, with the unadjusted
// p-value next to it, and the reference has its own row.
func TestReportsSaySpeedAdjusted(t *testing.T) {
	run := statstest.Run(statstest.Spec{
		Experiment: "speed", Scenarios: []string{"GETSingle"}, Trials: 10, Noise: 0.015, Speed: 0.05, Seed: 3,
		Variants: []statstest.Variant{
			{Name: "tcp", Baseline: true, Rate: 5000, P50Ms: 1, ServerUs: 100, DBUs: 110, RSSMB: 40},
			{Name: "unix", Rate: 5000, P50Ms: 1, ServerUs: 95, DBUs: 104, RSSMB: 40},
		},
	})
	run.Experiment.Load.Model = lab.ModelEfficiency
	v := stats.Compare(run, 0)
	var term, md, html bytes.Buffer
	Terminal(&term, run, v)
	if err := Markdown(&md, run, v); err != nil {
		t.Fatal(err)
	}
	if err := HTML(&html, run, v); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"terminal": term.String(), "markdown": md.String(), "html": html.String()} {
		out = strings.Join(strings.Fields(out), " ") // Markdown wraps its paragraphs
		for _, want := range []string{"speed-adjusted: unadjusted p=", "CPU per request adjusted for the machine", "machine speed reference"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s report lacks %q", name, want)
			}
		}
	}
}
