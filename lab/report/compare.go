package report

import (
	"bufio"
	"fmt"
	"io"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// Compared is one run of a comparison across runs, with its label and
// where it was read from.
type Compared struct {
	Label string
	Dir   string
	Run   *lab.Run
}

// runLine describes a run in one line: label, directory, experiment, date, target.
func runLine(c Compared) string {
	r := c.Run
	return fmt.Sprintf("%s = %s: %s, %s, %s", c.Label, c.Dir, r.Experiment.Name, r.Started.UTC().Format("2006-01-02 15:04 MST"), TargetDesc(r.Target))
}

// CompareTerminal writes a comparison of two runs (from stats.CompareRuns,
// a as the baseline) for a terminal.
func CompareTerminal(w io.Writer, a, b Compared, v *stats.Verdicts) {
	fmt.Fprintf(w, "Comparing runs (%s is the baseline)\n", a.Label)
	fmt.Fprintf(w, "  %s\n  %s\n", runLine(a), runLine(b))
	if a.Run.Host.Hostname != b.Run.Host.Hostname || a.Run.Host.CPUModel != b.Run.Host.CPUModel {
		fmt.Fprintf(w, "  ! different machines: %s vs %s: differences may come from the machine\n", HostDesc(a.Run.Host), HostDesc(b.Run.Host))
	}
	if LoadDesc(a.Run.Experiment.Load) != LoadDesc(b.Run.Experiment.Load) {
		fmt.Fprintf(w, "  ! different load: %s vs %s\n", LoadDesc(a.Run.Experiment.Load), LoadDesc(b.Run.Experiment.Load))
	}
	fmt.Fprintf(w, "  medians ±%.0f%% CI, Mann-Whitney U, alpha %g\n", 100*v.Confidence, v.Alpha)
	if len(v.Rows) == 0 {
		fmt.Fprintln(w, "\nNothing to compare: the runs share no scenario with valid trials.")
		return
	}
	for _, sc := range v.Scenarios {
		for _, name := range v.Variants {
			rows := v.For(sc, name)
			if len(rows) == 0 {
				continue
			}
			fmt.Fprintf(w, "\n%s: %s vs %s\n", sc, name, rows[0].BaselineName)
			terminalTable(w, rows)
		}
	}
	fmt.Fprintf(w, "\nVerdict (%s):\n", primaryLabel(v))
	for _, line := range Headlines(v) {
		fmt.Fprintf(w, "  %s\n", line)
	}
}

// CompareMarkdown writes a comparison of two runs as Markdown.
func CompareMarkdown(w io.Writer, a, b Compared, v *stats.Verdicts) error {
	fmt.Fprintf(w, "# %s vs %s\n\n", a.Run.Experiment.Name, b.Run.Experiment.Name)
	fmt.Fprintf(w, "- %s (baseline)\n- %s\n\n", format.MdEscape(runLine(a)), format.MdEscape(runLine(b)))
	fmt.Fprintf(w, "## Verdict\n\n")
	for _, line := range Headlines(v) {
		fmt.Fprintf(w, "- %s\n", format.MdEscape(line))
	}
	fmt.Fprintln(w)
	bw := bufio.NewWriter(w)
	for _, sc := range v.Scenarios {
		mdScenario(bw, v, sc)
	}
	return bw.Flush()
}
