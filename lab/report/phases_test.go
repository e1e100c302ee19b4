package report_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// phaseRun is the fixture run with Server-Timing on every trial: the unix
// variants spend 0.3 ms less in transaction than tcp, the other phases are
// equal (with the same small per-trial wobble).
func phaseRun() *lab.Run {
	run := fixtureRun("")
	for i := range run.Trials {
		t := &run.Trials[i]
		w := 0.01 * float64(t.Rep%3)
		tx := 1.1 + w
		if t.Variant != "tcp" {
			tx -= 0.3
		}
		ph := []float64{0.02 + w, 0.1 + w, 0.1 + w, tx, 0.05 + w}
		st := &lab.ServerTiming{Requests: t.Load.Requests}
		for j, name := range lab.PhaseNames {
			st.Phases = append(st.Phases, lab.PhaseStat{Name: name, MeanMs: ph[j], P50Ms: ph[j], P99Ms: 3 * ph[j]})
			st.Total.MeanMs += ph[j]
		}
		t.Load.ServerTiming = st
	}
	return run
}

func TestPhasesShowWhereTheTimeGoes(t *testing.T) {
	run := phaseRun()
	v := stats.Compare(run, 0.05)
	pt := report.Phases(run, v, "GETSingle")
	if pt == nil || len(pt.Rows) != 3 {
		t.Fatalf("phase table %+v", pt)
	}
	for _, r := range pt.Rows {
		t.Logf("%-10s %v sum %.2f moved: %s", r.Variant, r.Ms, r.TotalMs, r.Moved)
	}
	if r := pt.Rows[0]; !r.Baseline || r.Moved != "" || r.Ms[3] < 1.1 || r.Ms[3] > 1.13 {
		t.Errorf("baseline row %+v", r)
	}
	if r := pt.Rows[1]; !strings.HasPrefix(r.Moved, "transaction -0.30 ms (-27%, better)") || strings.Contains(r.Moved, "parse") {
		t.Errorf("unix moved %q, want transaction only", r.Moved)
	}
	if report.Phases(fixtureRun(""), v, "GETSingle") != nil {
		t.Error("a phase table without Server-Timing")
	}

	var md, html bytes.Buffer
	if err := report.Markdown(&md, run, v); err != nil {
		t.Fatal(err)
	}
	if err := report.HTML(&html, run, v); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| variant | jwt | parse | plan | transaction | response | sum | phases that moved |",
		"| tcp (baseline) | 0.03 | 0.11 | 0.11 | 1.11 | 0.06 |", "transaction -0.30 ms", "on the wall clock"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("Markdown lacks %q", want)
		}
	}
	run.Target.Reference, run.Target.Version = false, "PostgREST 13.0.8" // real PostgREST 13: its phases are CPU time
	if pt := report.Phases(run, v, "GETSingle"); !strings.Contains(pt.Clock, "PostgREST#4522") || !strings.Contains(pt.Clock, "before 14.2") {
		t.Errorf("clock note for PostgREST: %q", pt.Clock)
	}
	for _, want := range []string{"GETSingle: Server-Timing phases per variant", "GETSingleEmbed: Server-Timing phases per variant",
		`<table class="phases">`, "<th>transaction</th>", "transaction -0.30 ms"} {
		if !strings.Contains(html.String(), want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
}

// TestPhaseChartRendersInChromium takes a screenshot of a report with
// Server-Timing and looks for the phase chart's transaction colour (the
// fourth of the palette; the variants use the first three).
func TestPhaseChartRendersInChromium(t *testing.T) {
	run := phaseRun()
	var html bytes.Buffer
	if err := report.HTML(&html, run, stats.Compare(run, 0.05)); err != nil {
		t.Fatal(err)
	}
	img := screenshot(t, html.Bytes(), "1200,7000")
	b := img.Bounds()
	teal := 0
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			if near(r>>8, 0x76) && near(g>>8, 0xb7) && near(bl>>8, 0xb2) {
				teal++
			}
		}
	}
	t.Logf("screenshot %v: %d sampled pixels of the transaction phase's colour", b.Size(), teal)
	if teal < 500 {
		t.Errorf("the phase chart's transaction bars are not on the screenshot (%d pixels)", teal)
	}
}

func near(a uint32, b uint32) bool { return a+6 >= b && a <= b+6 }

// TestPhasesOfDifferentClocksHaveNoVerdict: a variant running PostgREST
// 14.17 (wall clock) against a baseline on 13.0.8 (CPU time) has its
// Server-Timing rows shown with both sides' figures, no better/worse and
// the reason; a variant on the baseline's version keeps its verdicts. The
// unix variant's transaction phase is 27 % lower, which the old code
// called "better".
func TestPhasesOfDifferentClocksHaveNoVerdict(t *testing.T) {
	run := phaseRun()
	run.Target.Reference, run.Target.Version = false, "PostgREST 13.0.8"
	for i := range run.Variants {
		if run.Variants[i].Name == "unix" {
			run.Variants[i].Binary, run.Variants[i].Version = "/opt/postgrest-14.17", "PostgREST 14.17"
		}
	}
	v := stats.Compare(run, 0.05)
	const note = "13.0.8 reports CPU time, 14.17 wall clock (PostgREST #4522, 14.2): not comparable"
	var seen, judged int
	for _, r := range v.Rows {
		if !strings.HasPrefix(r.Metric.Name, lab.PhasePrefix) || r.Scenario != "GETSingle" {
			continue
		}
		switch r.VariantName {
		case "unix":
			seen++
			if r.Outcome != stats.NotComparable || r.Significant || r.Outcome == stats.Better || r.Outcome == stats.Worse {
				t.Errorf("unix %s: outcome %q significant %v, want no verdict", r.Metric.Name, r.Outcome, r.Significant)
			}
			if r.Baseline.N == 0 || r.Variant.N == 0 || r.Delta() != "n/c" || len(r.Warnings) == 0 || !strings.Contains(r.Warnings[0], note) {
				t.Errorf("unix %s: n %d+%d, delta %q, warnings %q", r.Metric.Name, r.Baseline.N, r.Variant.N, r.Delta(), r.Warnings)
			}
		case "unix-nolog":
			if r.Metric.Name == lab.PhasePrefix+"transaction" && r.Outcome == stats.Better {
				judged++
			}
		}
	}
	if seen != len(lab.PhaseNames)+1 || judged != 1 {
		t.Errorf("%d unix st_* rows (want %d), unix-nolog's transaction judged better %d times (want 1)", seen, len(lab.PhaseNames)+1, judged)
	}

	pt := report.Phases(run, v, "GETSingle")
	if pt == nil || len(pt.Rows) != 3 {
		t.Fatalf("phase table %+v", pt)
	}
	if r := pt.Rows[1]; r.Variant != "unix" || !strings.Contains(r.Moved, note) || strings.Contains(r.Moved, "better") {
		t.Errorf("unix row %q: moved %q", r.Variant, r.Moved)
	}
	if !strings.Contains(pt.Clock, "time the phases differently") {
		t.Errorf("clock note %q", pt.Clock)
	}
	var md, term bytes.Buffer
	if err := report.Markdown(&md, run, v); err != nil {
		t.Fatal(err)
	}
	report.Terminal(&term, run, v)
	for name, out := range map[string]string{"Markdown": md.String(), "terminal": term.String()} {
		if !strings.Contains(out, note) {
			t.Errorf("%s lacks the note %q", name, note)
		}
		// Two scenarios, six st_* rows each for unix, none judged.
		if n := strings.Count(out, "n/c"); n != 2*(len(lab.PhaseNames)+1) {
			t.Errorf("%s: %d rows marked n/c, want %d", name, n, 2*(len(lab.PhaseNames)+1))
		}
		for _, block := range strings.Split(out, "\n\n") {
			if !strings.Contains(block, ": unix vs tcp") {
				continue
			}
			for _, line := range strings.Split(block, "\n") {
				if strings.Contains(line, "Server-Timing") && (strings.Contains(line, "better") || strings.Contains(line, "worse")) {
					t.Errorf("%s: a verdict on unix's phases: %s", name, line)
				}
			}
		}
	}
}
