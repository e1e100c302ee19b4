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
	run.Target.Reference = false // real PostgREST 13: its phases are CPU time
	if pt := report.Phases(run, v, "GETSingle"); !strings.Contains(pt.Clock, "PostgREST#4522") {
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
