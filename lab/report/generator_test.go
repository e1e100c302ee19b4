package report_test

import (
	"bytes"
	"strings"
	"testing"

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
	if !strings.Contains(html.String(), "GETSingle: server + database CPU per variant") {
		t.Error("efficiency report's per-trial chart is not CPU per request")
	}
	if strings.Contains(html.String(), "GETSingle: throughput per variant") {
		t.Error("efficiency report still charts throughput per variant")
	}
}
