package post

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"

	"github.com/pgrst-lab/pgrst-lab/lab/report"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
)

// mdMethodology says, per run, how its figures were measured: the
// machine, the cores, the versions and configuration, the data, the
// requests and what they answered, the load, the limit, the trials, and
// what was excluded and why. Each fact is worded by package report, as
// in the run's own report.
func mdMethodology(b *bufio.Writer, srcs []Source) {
	fmt.Fprint(b, "## Methodology\n\n")
	for _, s := range srcs {
		r := s.Run
		if len(srcs) > 1 {
			fmt.Fprintf(b, "### %s\n\n", format.MdEscape(s.Label))
		}
		item := func(k, v string) {
			if v != "" {
				fmt.Fprintf(b, "- %s: %s\n", k, v)
			}
		}
		item("Machine", format.MdEscape(report.HostDesc(r.Host)))
		cores := report.PartitionDesc(r.Experiment)
		if cores == "" {
			cores = "no partition: the load generator, PostgREST and PostgreSQL shared the machine's CPUs"
		}
		item("Cores", format.MdEscape(cores))
		item("Server", format.MdEscape(report.TargetDesc(r.Target)))
		if c := strings.TrimSpace(r.Target.Config); c != "" && !strings.Contains(c, "\n") {
			item("Configuration", format.MdCode(c))
		}
		item("Binaries", report.BinariesDesc(r, format.MdCode, format.MdEscape))
		item("PostgreSQL", format.MdEscape(r.Host.PostgreSQL))
		data := report.DatasetDesc(r)
		if data == "" {
			data = "not recorded by this run"
		}
		item("Data", format.MdEscape(data))
		if lines := report.ScenarioLines(r, format.MdCode, format.MdEscape); len(lines) > 0 {
			fmt.Fprint(b, "- Requests:\n")
			for _, l := range lines {
				fmt.Fprintf(b, "  - %s\n", l)
			}
		}
		item("Load", format.MdEscape(report.LoadDesc(r.Experiment.Load)))
		item("Limit", format.MdEscape(r.Experiment.Load.Limit.String()))
		item("Trials", format.MdEscape(fmt.Sprintf("%s per variant and scenario, %s order; intervals are 95 %%",
			report.TrialCounts(r), report.OrderOf(r))))
		item("Interference", format.MdEscape(report.InterferenceDesc(r)))
		if ex := excluded(r); len(ex) > 0 {
			fmt.Fprint(b, "- Excluded or flagged:\n")
			for _, l := range ex {
				fmt.Fprintf(b, "  - %s\n", format.MdEscape(l))
			}
		} else {
			item("Excluded", "nothing: every trial met a rate within the limit and none was flagged")
		}
		fmt.Fprintln(b)
	}
}

// mdReproduce says how to measure each run again.
func mdReproduce(b *bufio.Writer, srcs []Source) {
	fmt.Fprint(b, "## Reproduce\n\n")
	for _, s := range srcs {
		cmd, what := report.Reproduce(s.Run)
		line := fmt.Sprintf("- %s: %s (%s", format.MdEscape(s.Label), format.MdCode(cmd), format.MdEscape(what))
		if h := s.Run.ExperimentHash; h != "" {
			line += "; experiment " + format.MdCode(h)
		}
		fmt.Fprintf(b, "%s).\n", line)
	}
	fmt.Fprintln(b)
}

// excluded says what the run's figures leave out or flag: its events and
// failed trials (as its report lists them), each scenario's trials that
// met no rate within the limit, and the trials other work disturbed.
func excluded(r *lab.Run) []string {
	out := report.EventLines(r)
	for _, l := range stats.Limits(r) {
		if l.Failed > 0 {
			why := ""
			if l.Why != "" && !strings.Contains(l.Why, "no rate met") {
				why = " (" + l.Why + ")"
			}
			out = append(out, fmt.Sprintf("%s, %s: %d of %d trials met no rate within the limit%s; the limit is the others'",
				l.Scenario, l.Variant, l.Failed, l.Trials, why))
		}
	}
	flagged := 0
	for _, t := range r.Trials {
		if t.Interference != nil && t.Interference.Flagged {
			flagged++
		}
	}
	if flagged > 0 {
		out = append(out, fmt.Sprintf("%d trial(s) flagged as disturbed by other work (see Interference)", flagged))
	}
	return out
}
