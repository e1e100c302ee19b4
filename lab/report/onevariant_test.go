package report

import (
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/stats/statstest"
)

// oneVariantRun is a run shaped like `lab run limits` on one server: one
// variant, a search per scenario, per-second detail.
func oneVariantRun() *lab.Run {
	return statstest.Run(statstest.Spec{Experiment: "limits", Scenarios: []string{"GETSingle", "GETSingleEmbed"}, Trials: 3,
		Noise: 0.05, Seed: 3, Detail: true, Model: lab.ModelSearch,
		Variants: []statstest.Variant{{Name: "v14", Baseline: true, Rate: 2100, P50Ms: 4, ServerUs: 400, DBUs: 300, RSSMB: 60}}})
}

// verdictMachinery is what a report only needs when it compares: the
// tests' names, the MDE, the intervals' boilerplate and the empty
// sections of a comparison that did not happen.
var verdictMachinery = []string{"Mann-Whitney", "MDE", "mde", "medians ±", "Nothing to compare", "nothing to compare",
	"No comparison.", "## Verdict", "<h2>Verdict</h2>", "Verdict ("}

// A one-variant run's report, in every format, shows no verdict
// machinery, and still shows what it measured.
func TestOneVariantHasNoVerdictMachinery(t *testing.T) {
	for name, run := range map[string]*lab.Run{"limits": oneVariantRun(), "closed": statstest.Run(statstest.Spec{Experiment: "memory",
		Scenarios: []string{"GETAllEmbed"}, Trials: 3, Noise: 0.05, Seed: 4, Detail: true,
		Variants: []statstest.Variant{{Name: "only", Baseline: true, Rate: 900, P50Ms: 8, ServerUs: 400, DBUs: 300, RSSMB: 60}}})} {
		md, html, term := renderAll(t, run)
		for format, out := range map[string]string{"markdown": md, "html": html, "terminal": term} {
			for _, bad := range verdictMachinery {
				if i := strings.Index(out, bad); i >= 0 {
					t.Errorf("%s run, %s: has %q: …%s…", name, format, bad, out[max(0, i-120):min(len(out), i+120)])
				}
			}
			if !strings.Contains(out, run.Trials[0].Scenario) {
				t.Errorf("%s run, %s: does not name its scenario", name, format)
			}
		}
		if name == "limits" {
			for format, out := range map[string]string{"markdown": md, "html": html, "terminal": term} {
				if !strings.Contains(out, "GETSingleEmbed") || !strings.Contains(out, "req/s") {
					t.Errorf("%s: the limits are missing:\n%s", format, out)
				}
			}
		}
	}
	// Two variants still carry the machinery.
	md, _, term := renderAll(t, statstest.Run(statstest.Spec{Experiment: "ab", Scenarios: []string{"GETSingle"}, Trials: 6, Noise: 0.02, Seed: 5,
		Variants: []statstest.Variant{{Name: "a", Baseline: true, Rate: 900, P50Ms: 2}, {Name: "b", Rate: 1000, P50Ms: 1.8}}}))
	for _, want := range []string{"## Verdict", "mde"} {
		if !strings.Contains(md, want) {
			t.Errorf("a two-variant report.md lacks %q", want)
		}
	}
	if !strings.Contains(term, "Verdict (") {
		t.Errorf("a two-variant terminal report lacks its verdict:\n%s", term)
	}
}
