package report_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// Trials' interference figures show in the reports' setup.
func TestInterferenceInReports(t *testing.T) {
	run := fixtureRun("closed")
	for i := range run.Trials {
		run.Trials[i].Interference = &lab.Interference{Machine: 1, Other: 0.1, Share: 0.05}
	}
	run.Trials[3].Interference = &lab.Interference{Machine: 2, Other: 0.8, Share: 0.4, Flagged: true}
	run.Trials[3].Error = "interference: other work used more than 20% of the machine's CPUs in round 2"
	run.Capacity = []lab.Capacity{{Scenario: "GETSingle", Variant: "tcp", Found: 1100, Rate: 715}}
	run.Experiment.Partition = lab.Partition{Generator: "0", PostgREST: "1", PostgreSQL: "1"}
	var term, md bytes.Buffer
	report.Terminal(&term, run, stats.Compare(run, 0.05))
	if err := report.Markdown(&md, run, stats.Compare(run, 0.05)); err != nil {
		t.Fatal(err)
	}
	// report.md wraps its setup list at 120 columns: compare with the lines joined.
	mdText := strings.Join(strings.Fields(md.String()), " ")
	want := "other work used 5% of the machine's CPUs (median; max 40%) during the trials, limit 20%; 1 trial(s) above it: their rounds are left out of the figures"
	if !strings.Contains(term.String(), "machine  "+want) || !strings.Contains(mdText, "**Interference**: "+want) {
		t.Errorf("reports lack %q:\n%s", want, term.String())
	}
	// Kept for want of clean rounds: the report says the figures are unreliable, never "measured again".
	run.Trials[3].Error = ""
	term.Reset()
	report.Terminal(&term, run, stats.Compare(run, 0.05))
	if kept := "1 disturbed trial(s) kept, flagged, for want of clean rounds: figures from them are unreliable"; !strings.Contains(term.String(), kept) || strings.Contains(term.String(), "measured again") {
		t.Errorf("a kept disturbed trial: reports lack %q:\n%s", kept, term.String())
	}
	if c := "GETSingle (tcp): open 1100 req/s; trials at 715 req/s"; !strings.Contains(term.String(), "capacity "+c) || !strings.Contains(mdText, "**Capacity**: "+c) {
		t.Errorf("reports lack the capacity search %q", c)
	}
	if p := "load generator on CPUs 0, PostgREST on CPUs 1, PostgreSQL on CPUs 1"; !strings.Contains(term.String(), "cpus     "+p) || !strings.Contains(mdText, "**Partition**: "+p) {
		t.Errorf("reports lack the partition %q", p)
	}
}

// Issue 53: the CPU time the hypervisor stole (the 2020 thread's t3a
// puzzle: a burstable instance out of credits) is said beside the other
// work.
func TestStealInReports(t *testing.T) {
	run := fixtureRun("closed")
	run.Host.CPUs = 2
	for i := range run.Trials {
		run.Trials[i].Interference = &lab.Interference{Machine: 1, Other: 0.1, Share: 0.05, Steal: 0.1 * float64(i%3)}
	}
	var term bytes.Buffer
	report.Terminal(&term, run, stats.Compare(run, 0.05))
	if want := "the hypervisor stole 5% of the CPUs (median; max 10%)"; !strings.Contains(term.String(), want) {
		t.Errorf("report lacks %q:\n%s", want, term.String())
	}
}
