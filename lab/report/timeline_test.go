package report

import (
	"strings"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// A run with an action: the Markdown and HTML reports draw its first trial
// on one time axis, with the action at its time and the stall it caused.
func TestTimelineInMarkdownAndHTML(t *testing.T) {
	m := time.Date(2026, 12, 5, 14, 0, 0, 0, time.UTC)
	run := &lab.Run{Experiment: lab.Experiment{Name: "reload", Load: lab.Load{Model: lab.ModelClosed, Connections: 4},
		Scenarios: []string{"GETSingle"}, Actions: []lab.Action{{At: 4 * time.Second, Do: lab.ActionNotify}}}}
	run.Variants = []lab.VariantInfo{{Name: "base", Baseline: true}}
	tr := lab.Trial{Seq: 1, Rep: 1, Variant: "base", Scenario: "GETSingle", Measured: m, Load: lab.LoadStats{Requests: 4000, Rate: 400}}
	for i := range 10 {
		s := lab.Second{T: float64(i + 1), Requests: 500, P50Ms: 2, P99Ms: 9, MaxMs: 14}
		if i == 4 || i == 5 {
			s = lab.Second{T: float64(i + 1)}
		}
		tr.Series = append(tr.Series, s)
		tr.Server.Samples = append(tr.Server.Samples, lab.UsageSample{T: float64(i) + 0.5, RSS: 30 << 20})
	}
	tr.Events = []lab.Event{{T: m.Add(4 * time.Second), Kind: lab.EventAction, Detail: "NOTIFY pgrst, 'reload schema'", Duration: 2 * time.Millisecond}}
	run.Trials = []lab.Trial{tr}
	md, html, _ := renderAll(t, run)
	for _, want := range []string{"## Timeline", "### Trial 1: base, GETSingle", "event at 4.00 s: action NOTIFY", "stall from 4.00 s for 2.00 s",
		"| 4 | 0 | 0 | – | – | – | 31.5 MB |"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	for _, want := range []string{"<h2>Timeline</h2>", `aria-label="Trial 1: base, GETSingle"`, "Stalls: from 4.00 s for 2.00 s"} {
		if !strings.Contains(html, want) {
			t.Errorf("html lacks %q", want)
		}
	}
}

// With timeline = true the report states each trial's memory growth per
// hour with its interval.
func TestGrowthInMarkdownAndHTML(t *testing.T) {
	// The live heap after major collections: +0.5 MB a minute, one a second.
	ghc := &lab.GHCStats{GCs: 60, MajorGCs: 60}
	for i := range 60 {
		ghc.Live = append(ghc.Live, lab.LiveSample{T: float64(i), Bytes: int64(10e6 + 0.5e6*float64(i)/60)})
	}
	md, html, _ := renderAll(t, soakRun(40e6, 1e6, ghc)) // +1 MB a minute
	for name, out := range map[string]string{"markdown": md, "html": html} {
		for _, want := range []string{"Memory growth", "60.0 MB/h", "40.0 MB", "live heap growth", "30.0 MB/h", "10.0 MB → 10.5 MB (60)"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s lacks %q", name, want)
			}
		}
	}
}

// A soak with one major collection (30 minutes at 50 req/s beside 10,000
// tables, 2026-12-06) has no live heap growth to fit, but its live heap
// after that collection is in the table: the figure that tells the RSS
// step at the collection from a leak.
func TestGrowthShowsTheLiveHeapOfOneMajorCollection(t *testing.T) {
	ghc := &lab.GHCStats{GCs: 60, MajorGCs: 1, Live: []lab.LiveSample{{T: 45, Bytes: 53.2e6}}}
	md, html, _ := renderAll(t, soakRun(130e6, 60e6, ghc))
	for name, out := range map[string]string{"markdown": md, "html": html} {
		if !strings.Contains(out, "53.2 MB (1)") {
			t.Errorf("%s lacks the live heap after the one major collection, 53.2 MB (1)", name)
		}
	}
	if !strings.Contains(md, "| 53.2 MB (1) | – | – |") {
		t.Errorf("markdown: want the live heap and no growth fitted from one collection:\n%s", md)
	}
}

// soakRun is a one-minute soak of timeline = true at 50 req/s whose RSS
// starts at rss and grows by perMinute, with the GHC statistics ghc.
func soakRun(rss, perMinute float64, ghc *lab.GHCStats) *lab.Run {
	run := &lab.Run{Experiment: lab.Experiment{Name: "soak", Timeline: true, Load: lab.Load{Model: lab.ModelOpen, Rate: 50},
		Scenarios: []string{"GETSingle"}}}
	run.Variants = []lab.VariantInfo{{Name: "base", Baseline: true}}
	tr := lab.Trial{Seq: 1, Rep: 1, Variant: "base", Scenario: "GETSingle", Load: lab.LoadStats{Requests: 3000, Rate: 50}, GHC: ghc}
	for i := range 600 {
		tr.Server.Samples = append(tr.Server.Samples, lab.UsageSample{T: float64(i) / 10, RSS: uint64(rss + perMinute*float64(i)/600)})
	}
	for i := range 60 {
		tr.Series = append(tr.Series, lab.Second{T: float64(i + 1), Requests: 50, P50Ms: 2, P99Ms: 4})
	}
	run.Trials = []lab.Trial{tr}
	return run
}
