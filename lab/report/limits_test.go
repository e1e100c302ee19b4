package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// A search run of one variant: its report leads with the limits table
// (it has no comparison), in Markdown, HTML and on the terminal.
func TestLimitsInEveryFormat(t *testing.T) {
	run := &lab.Run{Experiment: lab.Experiment{Name: "limits", Load: lab.Load{Model: lab.ModelSearch},
		Scenarios: []string{"GETSingle", "GETAllEmbed"}, Variants: []lab.Variant{{Name: "v13", Baseline: true}}}}
	for _, r := range []float64{2000, 2200, 2100} {
		run.Trials = append(run.Trials, lab.Trial{Variant: "v13", Scenario: "GETSingle",
			Load: lab.LoadStats{Model: lab.ModelSearch, Requests: int64(2 * r), Rate: r, MaxInFlight: 100}})
	}
	run.Trials = append(run.Trials,
		lab.Trial{Variant: "v13", Scenario: "GETAllEmbed", Load: lab.LoadStats{Model: lab.ModelSearch, Requests: 60, Rate: 30, MaxInFlight: 100}},
		lab.Trial{Variant: "v13", Scenario: "GETAllEmbed", Error: "crashed: Heap exhausted"})
	md, html, term := renderAll(t, run)
	for name, out := range map[string]string{"markdown": md, "html": html, "terminal": term} {
		for _, want := range []string{"2100", "2000–2200", "0.014", "1.00", "Heap exhausted"} {
			if name == "terminal" && want == "Heap exhausted" {
				want = "1 of 2"
			}
			if !strings.Contains(out, want) {
				t.Errorf("%s lacks %q:\n%s", name, want, out)
			}
		}
	}
	for name, out := range map[string]string{"markdown": md, "html": html} {
		if !strings.Contains(out, "lab run limits") {
			t.Errorf("%s does not say how to reproduce the table", name)
		}
	}
	if n := strings.Count(html, `aria-label="Highest rate within the limit"`); n != 1 {
		t.Errorf("report.html has %d throughput charts, want 1", n)
	}
	if i, j := strings.Index(md, "## Limits"), strings.Index(md, "## Setup"); i < 0 || i > j {
		t.Errorf("report.md does not lead with the limits table (Limits at %d, Setup at %d)", i, j)
	}
}

// renderAll renders run's report.md, report.html and terminal summary.
func renderAll(t *testing.T, run *lab.Run) (md, html, term string) {
	t.Helper()
	v := stats.Compare(run, 0.05)
	var m, h, tm bytes.Buffer
	if err := Markdown(&m, run, v); err != nil {
		t.Fatal(err)
	}
	if err := HTML(&h, run, v); err != nil {
		t.Fatal(err)
	}
	Terminal(&tm, run, v)
	return m.String(), h.String(), tm.String()
}
