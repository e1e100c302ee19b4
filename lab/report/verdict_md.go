package report

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// mdVerdictTable writes the verdicts as one short table: per scenario and
// variant the primary metric's change, its p-value and MDE, then the
// change of each extra metric, and a note of the row's other warnings.
func mdVerdictTable(b *bufio.Writer, v *stats.Verdicts, extras []lab.Metric) {
	heads := v.Headlines()
	if len(heads) == 0 {
		fmt.Fprintf(b, "Nothing to compare (one variant, or no valid trials).\n\n")
		return
	}
	fmt.Fprintf(b, "| scenario | variant | %s vs %s | p | mde |", primaryLabel(v), format.MdEscape(heads[0].BaselineName))
	sep := "|---|---|---:|---|---:|"
	for _, m := range extras {
		fmt.Fprintf(b, " %s |", m.Label)
		sep += "---:|"
	}
	fmt.Fprintf(b, " notes |\n%s---|\n", sep)
	noisy := false
	for _, h := range heads {
		rows := v.For(h.Scenario, h.VariantName)
		noisy = noisy || anyNoisy([]stats.Row{h})
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s |", format.MdEscape(h.Scenario), format.MdEscape(h.VariantName), deltaCell(h), h.PString(), h.MDEString())
		for _, m := range extras {
			c := "–"
			for _, r := range rows {
				if r.Metric.Name == m.Name {
					c = deltaCell(r)
					noisy = noisy || anyNoisy([]stats.Row{r})
				}
			}
			fmt.Fprintf(b, " %s |", c)
		}
		var notes []string
		if n := unmeasured(h); n != "" {
			notes = append(notes, n)
		}
		if n := h.SpeedNote(); n != "" {
			notes = append(notes, n)
		}
		if n := len(otherWarnings(rows)); n > 0 {
			notes = append(notes, fmt.Sprintf("%d warning(s)", n))
		}
		if len(notes) == 0 {
			fmt.Fprintf(b, " |\n")
		} else {
			fmt.Fprintf(b, " %s |\n", format.MdEscape(strings.Join(notes, ", ")))
		}
	}
	fmt.Fprintln(b)
	if noisy {
		fmt.Fprint(b, format.MdPara(noiseLegend()+"."))
	}
}

// deltaCell is the change of a row: "**-5.20%** worse", "~", with the
// noise mark when either median is noisy.
func deltaCell(r stats.Row) string {
	d := r.Delta()
	if r.Outcome == stats.Better || r.Outcome == stats.Worse || r.Outcome == stats.Changed {
		d = fmt.Sprintf("**%s** %s", d, r.Outcome)
	}
	if r.Baseline.Noisy() || r.Variant.Noisy() {
		d += noiseMark
	}
	return d
}
