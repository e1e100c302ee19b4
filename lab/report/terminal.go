package report

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/pgrst-lab/pgrst-lab/internal/textsafe"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
	"github.com/pgrst-lab/pgrst-lab/lab/report/sweep"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// Terminal writes a summary for a terminal: the setup in a few lines, a
// benchstat-like table per scenario and variant (metric | baseline |
// variant | delta | p), warnings under each table, and the verdicts.
func Terminal(w io.Writer, run *lab.Run, v *stats.Verdicts) {
	title := textsafe.CleanText(cmp.Or(run.Experiment.Title, run.Experiment.Name))
	fmt.Fprintf(w, "%s\n%s\n", title, strings.Repeat("=", len([]rune(title))))
	textsafe.Fprintf(w, "target   %s\n", TargetDesc(run.Target))
	textsafe.Fprintf(w, "host     %s\n", HostDesc(run.Host))
	if d := datasetDesc(run); d != "" {
		textsafe.Fprintf(w, "data     %s\n", d)
	}
	textsafe.Fprintf(w, "load     %s\n", LoadDesc(run.Experiment.Load))
	if compares(run) {
		textsafe.Fprintf(w, "trials   %s per variant and scenario, %s order; medians ±%.0f%% CI\n", trialCounts(run), orderOf(run), 100*v.Confidence)
		textsafe.Fprintf(w, "test     %s\n", v.Method())
	} else {
		textsafe.Fprintf(w, "trials   %s per scenario\n", trialCounts(run))
	}
	for _, l := range scenarioLines(run, plain, plain) {
		textsafe.Fprintf(w, "asked    %s\n", l)
	}
	if d := partitionDesc(run.Experiment); d != "" {
		textsafe.Fprintf(w, "cpus     %s\n", d)
	}
	if d := capacityDesc(run); d != "" {
		textsafe.Fprintf(w, "capacity %s\n", d)
	}
	if d := interferenceDesc(run); d != "" {
		textsafe.Fprintf(w, "machine  %s\n", d)
	}
	if run.Interrupted != "" {
		textsafe.Fprintf(w, "!        run interrupted: %s\n", run.Interrupted)
	}
	noisy := false
	for _, sc := range v.Scenarios {
		for _, name := range v.Variants {
			rows := v.For(sc, name)
			if len(rows) == 0 {
				continue
			}
			textsafe.Fprintf(w, "\n%s: %s vs %s\n", sc, name, rows[0].BaselineName)
			terminalTable(w, rows)
			noisy = noisy || anyNoisy(rows)
		}
	}
	if noisy {
		textsafe.Fprintf(w, "\n%s\n", noiseLegend())
	}
	if bins := binariesDesc(run, plain, plain); bins != "" {
		textsafe.Fprintf(w, "\nbinaries %s\n", bins)
	}
	LimitsText(w, run)
	MemoryText(w, run)
	sweep.Text(w, run, v)
	terminalEndpoints(w, v)
	switch {
	case compares(run):
		textsafe.Fprintf(w, "\nVerdict (%s):\n", primaryLabel(v))
		for _, line := range Headlines(v) {
			textsafe.Fprintf(w, "  %s\n", line)
		}
	case len(stats.Limits(run)) == 0:
		// One variant and no limits: what it measured, k6's way.
		fmt.Fprintln(w)
		if rows := K6Rows(run); len(rows) > 0 {
			_ = format.K6Text(w, rows, format.Bytes) // a terminal's errors are the writer's
		} else {
			fmt.Fprintln(w, "No valid trial: nothing was measured.")
		}
	}
	if len(run.Events) > 0 {
		fmt.Fprintf(w, "\n%d event(s) during the run, see the report's Events section.\n", len(run.Events))
	}
}

func terminalTable(w io.Writer, rows []stats.Row) {
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', 0)
	textsafe.Fprintf(tw, "  metric\t%s\t%s\tdelta\tp\tmde\t\n", rows[0].BaselineName, rows[0].VariantName)
	for _, r := range rows {
		textsafe.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\t%s\n", metricTitle(r.Metric), Cell(r.Baseline), Cell(r.Variant), r.Delta(), r.PString(), r.MDEString(), outcomeWord(r))
	}
	tw.Flush()
	format.WriteTrimmed(w, buf.String())
	for _, ws := range otherWarnings(rows) {
		textsafe.Fprintf(w, "  ! %s\n", ws)
	}
}

// Headlines says, per scenario and variant, what happened to throughput.
func Headlines(v *stats.Verdicts) []string {
	var out []string
	for _, r := range v.Headlines() {
		var s string
		switch {
		case unmeasured(r) != "":
			s = fmt.Sprintf("%s: %s vs %s: no verdict, %s", r.Scenario, r.VariantName, r.BaselineName, unmeasured(r))
		case r.Outcome == stats.Same:
			s = fmt.Sprintf("%s: %s vs %s: no significant difference (%s)", r.Scenario, r.VariantName, r.BaselineName, r.PString())
		default:
			s = fmt.Sprintf("%s: %s vs %s: %s %s, %s (%s)", r.Scenario, r.VariantName, r.BaselineName, r.Delta(), r.Metric.Label, r.Outcome, r.PString())
		}
		if unmeasured(r) == "" {
			s += "; " + r.MDESentence()
		}
		if n := r.SpeedNote(); n != "" {
			s += " (" + n + ")"
		}
		if len(r.Warnings) > 0 {
			s += fmt.Sprintf(" — %d warning(s)", len(r.Warnings))
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		out = append(out, "nothing to compare (one variant, or no valid trials)")
	}
	return out
}

func orderOf(run *lab.Run) lab.Order {
	if o := run.Experiment.Trials.Order; o != "" {
		return o
	}
	return lab.OrderInterleaved
}

// primaryLabel names the verdicts' headline metric.
func primaryLabel(v *stats.Verdicts) string {
	if v.Primary.Label != "" {
		return v.Primary.Label
	}
	return lab.Metrics[0].Label
}
