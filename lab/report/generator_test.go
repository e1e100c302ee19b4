package report_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// #25: the machine line says what the load generator used beside the
// server it measured, and an efficiency run's per-trial chart plots CPU per
// request (its trials all run at one rate, so throughput would be flat).
func TestMachineLineHasGeneratorAndEfficiencyChartHasCPU(t *testing.T) {
	run := fixtureRun(lab.ModelEfficiency)
	for i := range run.Trials {
		tr := &run.Trials[i]
		gen := 0.20 + 0.01*float64(i%5) // cores; median 0.22
		tr.Interference = &lab.Interference{Machine: 1.5, Generator: gen, Other: 0.1, Share: 0.05}
	}
	v := stats.Compare(run, 0.05)
	var term bytes.Buffer
	report.Terminal(&term, run, v)
	line := ""
	for _, l := range strings.Split(term.String(), "\n") {
		if strings.HasPrefix(l, "machine ") {
			line = l
		}
	}
	cpus := run.Host.CPUs
	for _, want := range []string{"the load generator used 0.22 cores (median; max 0.24)", "µs per request", "other work used 5%"} {
		if !strings.Contains(line, want) {
			t.Errorf("machine line %q lacks %q", line, want)
		}
	}
	if cpus > 0 && !strings.Contains(line, "of the machine's") {
		t.Errorf("machine line %q lacks the generator's share of the %d CPUs", line, cpus)
	}
	var html bytes.Buffer
	if err := report.HTML(&html, run, v); err != nil {
		t.Fatal(err)
	}
	// In a duet one generator loads both halves at once and its CPU is
	// measured whole: per request it counts both halves' requests.
	duet := fixtureRun(lab.ModelEfficiency)
	for i := range duet.Trials {
		tr := &duet.Trials[i]
		tr.Half, tr.Load.Rate, tr.Rep, tr.Scenario = lab.Halves[i%2], 1000, i/2+1, duet.Trials[i-i%2].Scenario // pairs: a round's two halves
		tr.Interference = &lab.Interference{Machine: 1.5, Generator: 0.1, Other: 0.1, Share: 0.05}
	}
	term.Reset()
	report.Terminal(&term, duet, stats.Compare(duet, 0.05))
	if !strings.Contains(term.String(), "0.10 cores (median; max 0.10)") || !strings.Contains(term.String(), ", 50 µs per request") {
		t.Errorf("duet machine line: want 0.1 cores over 2 x 1000 req/s = 50 µs per request:\n%s", term.String())
	}
	if !strings.Contains(html.String(), "GETSingle: server + database CPU per variant") {
		t.Error("efficiency report's per-trial chart is not CPU per request")
	}
	if strings.Contains(html.String(), "GETSingle: throughput per variant") {
		t.Error("efficiency report still charts throughput per variant")
	}
}

// #25: an efficiency run's capacity is stated under both conditions, the
// open model's within its limit and the closed model's with N connections,
// and an open figure well below the closed one says what broke the limit
// above it.
func TestCapacityLineHasBothModels(t *testing.T) {
	run := fixtureRun(lab.ModelEfficiency)
	run.Capacity = []lab.Capacity{{Scenario: "GETSingle", Variant: "tcp", Found: 3200, Rate: 2080,
		Limit:  lab.Limit{P99: 50 * time.Millisecond, MaxErrors: new(0.001), MaxDropped: new(0.01)},
		Closed: 5300, ClosedConnections: 10,
		Curve: []lab.CurvePoint{{AskedRate: 3200, Rate: 3200, P99Ms: 9, OK: true}, {AskedRate: 3600, Rate: 3370, P99Ms: 81, Dropped: 0.06}, {AskedRate: 4000, Rate: 3300, P99Ms: 200, Dropped: 0.2}}}}
	var term bytes.Buffer
	report.Terminal(&term, run, stats.Compare(run, 0.05))
	want := "GETSingle (tcp): open 3200 req/s within p99 ≤ 50ms, errors ≤ 0.1 %, dropped ≤ 1 %; closed with 10 connections 5300 req/s " +
		"(open/closed 0.60; above the open figure 3600 req/s asked got 3370 req/s, p99 81.0 ms, 6.0% dropped (every in-flight slot busy)); trials at 2080 req/s"
	if !strings.Contains(term.String(), want) {
		t.Errorf("terminal report lacks\n%s\nin\n%s", want, term.String())
	}
	run.Capacity[0].Found = 5000 // within 10 % of the closed figure: no explanation
	term.Reset()
	report.Terminal(&term, run, stats.Compare(run, 0.05))
	if !strings.Contains(term.String(), "closed with 10 connections 5300 req/s; trials at") {
		t.Errorf("an open figure near the closed one is explained anyway:\n%s", term.String())
	}
	// A search that met its max_rate found a bound, not a capacity: the
	// line says so instead of explaining the gap to the closed figure.
	run.Capacity[0].Found, run.Capacity[0].Limit.MaxRate = 500, 500
	term.Reset()
	report.Terminal(&term, run, stats.Compare(run, 0.05))
	if want := "open 500 req/s within p99 ≤ 50ms, errors ≤ 0.1 %, dropped ≤ 1 %, at most 500 req/s; closed with 10 connections 5300 req/s " +
		"(the open figure is the search's max_rate, not a capacity); trials at"; !strings.Contains(term.String(), want) {
		t.Errorf("terminal report lacks\n%s\nin\n%s", want, term.String())
	}
}
