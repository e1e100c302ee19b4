package report_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
	"github.com/pgrst-lab/pgrst-lab/lab/stats/statstest"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden with the current output")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		gotPath := filepath.Join(t.TempDir(), name)
		os.WriteFile(gotPath, got, 0o644)
		t.Errorf("%s differs from the golden file; got written to %s\n(diff them, and run go test -update if the change is right)", path, gotPath)
	}
}

func TestMarkdownGolden(t *testing.T) {
	run := fixtureRun("closed")
	var b bytes.Buffer
	if err := report.Markdown(&b, run, stats.Compare(run, 0.05)); err != nil {
		t.Fatal(err)
	}
	golden(t, "report.md.golden", b.Bytes())
}

func TestTerminalGolden(t *testing.T) {
	run := fixtureRun("closed")
	var b bytes.Buffer
	report.Terminal(&b, run, stats.Compare(run, 0.05))
	golden(t, "terminal.golden", b.Bytes())
}

// endpointsRun is a loadtest-like run: two variants, a targets file of a
// slow line that B makes 4x faster, an unchanged fast line, and a 404 line
// only B answers.
func endpointsRun() *lab.Run {
	run := statstest.Run(statstest.Spec{Experiment: "loadtest", Scenarios: []string{"targets"}, Trials: 10, Noise: 0.02, Seed: 5,
		Variants: []statstest.Variant{{Name: "A", Baseline: true, Rate: 900, P50Ms: 2, ServerUs: 300, DBUs: 200, RSSMB: 60},
			{Name: "B", Rate: 1200, P50Ms: 1.5, ServerUs: 250, DBUs: 200, RSSMB: 60}}})
	statstest.AddEndpoints(run, map[string]float64{"B": 4}, 0.03, "B", 11)
	return run
}

func TestMarkdownEndpointsGolden(t *testing.T) {
	run := endpointsRun()
	var b bytes.Buffer
	if err := report.Markdown(&b, run, stats.Compare(run, 0.05)); err != nil {
		t.Fatal(err)
	}
	golden(t, "report-endpoints.md.golden", b.Bytes())
	md := b.String()
	first, verdict := strings.Index(md, "## Verdict per endpoint"), strings.Index(md, "## Verdict\n")
	slow, fast := strings.Index(md, "`200 GET /track?select=*`"), strings.Index(md, "`200 GET /artist?select=*&artist_id=eq.3`")
	if first < 0 || verdict < first || slow < first || fast < slow || slow > verdict {
		t.Errorf("the per-endpoint table comes first, the changed line on top: at %d, verdict at %d, slow %d, fast %d", first, verdict, slow, fast)
	}
	var term bytes.Buffer
	report.Terminal(&term, run, stats.Compare(run, 0.05))
	if s := term.String(); !strings.Contains(s, "1 of 3 lines changed") || !strings.Contains(s, "better   200 GET /track?select=*") {
		t.Errorf("terminal summary lacks the flagged line:\n%s", s)
	}
	var h bytes.Buffer
	if err := report.HTML(&h, run, stats.Compare(run, 0.05)); err != nil {
		t.Fatal(err)
	}
	if s := h.String(); !strings.Contains(s, "Verdict per endpoint") || !strings.Contains(s, "<code>200 GET /track?select=*</code>") {
		t.Errorf("HTML report lacks the per-endpoint table")
	}
}

// The PR summary shows the per-endpoint table before the verdict table.
func TestSummaryEndpointsFirst(t *testing.T) {
	run := endpointsRun()
	var b bytes.Buffer
	if err := report.Summary(&b, run, stats.Compare(run, 0.05), report.SummaryOptions{}); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	ep, verdict, slow := strings.Index(s, "#### Verdict per endpoint"), strings.Index(s, "\n| scenario | variant |"), strings.Index(s, "`200 GET /track?select=*`")
	if ep < 0 || slow < ep || verdict < slow {
		t.Errorf("summary: per-endpoint table at %d, slow line at %d, verdict table at %d:\n%s", ep, slow, verdict, s)
	}
}

// A run whose lines no verdict could reach (4 rounds, two lines: Holm's
// strictest step at 0.025, 4 pairs give no p below 0.125) says so in
// every format, with the rounds the lines need; one that could, does not.
func TestEndpointsOutOfReach(t *testing.T) {
	run := statstest.Run(statstest.Spec{Experiment: "loadtest", Scenarios: []string{"targets"}, Trials: 4, Noise: 0.02, Seed: 5,
		Variants: []statstest.Variant{{Name: "A", Baseline: true, Rate: 900, P50Ms: 2}, {Name: "B", Rate: 1200, P50Ms: 1.5}}})
	statstest.AddEndpoints(run, map[string]float64{"B": 4}, 0.03, "", 11)
	v := stats.Compare(run, 0.05)
	want := "targets, B: no line could have been found changed, however much: with 2 lines"
	var term, md, h bytes.Buffer
	report.Terminal(&term, run, v)
	if err := report.Markdown(&md, run, v); err != nil {
		t.Fatal(err)
	}
	if err := report.HTML(&h, run, v); err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]string{"terminal": term.String(), "markdown": md.String(), "html": h.String()} {
		if !strings.Contains(s, want) || !strings.Contains(s, "the lines need 7 rounds or more") {
			t.Errorf("%s: no out-of-reach sentence (want %q ... the lines need 7 rounds or more):\n%s", name, want, s)
		}
	}
	var ok bytes.Buffer
	in := endpointsRun()
	report.Terminal(&ok, in, stats.Compare(in, 0.05))
	if strings.Contains(ok.String(), "out of reach") {
		t.Errorf("10 rounds, lines in reach: the terminal says out of reach:\n%s", ok.String())
	}
}
