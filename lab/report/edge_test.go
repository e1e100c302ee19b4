package report_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
	"github.com/pgrst-lab/pgrst-lab/lab/stats/statstest"
)

// Runs with nothing to compare (one variant, no trials, every trial
// failed, interrupted) still render every format, saying so.
func TestEdgeRunsRender(t *testing.T) {
	one := statstest.Run(statstest.Spec{Experiment: "one", Scenarios: []string{"GETSingle"}, Trials: 3, Noise: 0.02, Seed: 1,
		Variants: []statstest.Variant{{Name: "only", Baseline: true, Rate: 1000, P50Ms: 2}}})
	failed := statstest.Run(statstest.Spec{Experiment: "failed", Scenarios: []string{"GETSingle"}, Trials: 2, Seed: 1,
		Variants: []statstest.Variant{{Name: "a", Baseline: true, Rate: 1000, P50Ms: 2}, {Name: "b", Rate: 1000, P50Ms: 2}}})
	for i := range failed.Trials {
		failed.Trials[i].Error = "not ready after 30s"
	}
	failed.Interrupted = "context canceled"
	empty := &lab.Run{Schema: 1, Experiment: lab.Experiment{Name: "empty"}}
	for name, run := range map[string]*lab.Run{"one": one, "failed": failed, "empty": empty} {
		v := stats.Compare(run, 0)
		var term, md, html, bench, csv bytes.Buffer
		report.Terminal(&term, run, v)
		// One variant: its figures, no verdict; nothing valid: says so.
		want := map[string]string{"one": "GETSingle  9798", "empty": "No valid trial: nothing was measured.", "failed": "no valid trials"}[name]
		if !strings.Contains(term.String(), want) {
			t.Errorf("%s: terminal lacks %q:\n%s", name, want, term.String())
		}
		if err := report.Markdown(&md, run, v); err != nil {
			t.Errorf("%s: markdown: %v", name, err)
		}
		if err := report.HTML(&html, run, v); err != nil {
			t.Errorf("%s: html: %v", name, err)
		}
		if err := report.Bench(&bench, run); err != nil {
			t.Errorf("%s: bench: %v", name, err)
		}
		if err := report.TrialsCSV(&csv, run); err != nil {
			t.Errorf("%s: csv: %v", name, err)
		}
		if err := report.JSON(&csv, v); err != nil {
			t.Errorf("%s: json: %v", name, err)
		}
	}
	var md bytes.Buffer
	v := stats.Compare(failed, 0)
	report.Markdown(&md, failed, v)
	for _, want := range []string{"Interrupted run", "failed trial(s) left out", "no valid trials"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("failed run: markdown lacks %q:\n%s", want, md.String())
		}
	}
	if r := v.Headlines(); len(r) != 1 || r[0].Delta() != "?" {
		t.Errorf("all trials failed: headline %+v, want delta ?", r)
	}
}
