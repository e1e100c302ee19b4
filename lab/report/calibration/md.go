package calibration

import (
	"bufio"
	"fmt"
	"io"

	"github.com/pgrst-lab/pgrst-lab/lab/calibrate"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
)

// Markdown writes calibration.md.
func Markdown(w io.Writer, res *calibrate.Result) error {
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, "# Calibration of %s\n\n", format.MdEscape(res.Experiment))
	if res.Stopped != "" {
		fmt.Fprintf(b, "> **Stopped early:** %s. The table holds the runs finished until then.\n\n", format.MdEscape(res.Stopped))
	}
	fmt.Fprintf(b, "%s\n\n", format.Wrap(intro(res), 100))
	fmt.Fprintf(b, "| | |\n|---|---|\n")
	for _, kv := range setupRows(res) {
		fmt.Fprintf(b, "| %s | %s |\n", kv[0], format.MdEscape(kv[1]))
	}
	design, rule := "", ""
	if compared(res) {
		design, rule = " design |", "---|"
	}
	fmt.Fprintf(b, "\n|%s effect | injected | runs | declared a difference | measured change | mean MDE | mean rounds | mean minutes |\n", design)
	fmt.Fprintf(b, "|%s---|---:|---:|---|---:|---:|---:|---:|\n", rule)
	for _, r := range res.Rows {
		cell := ""
		if design != "" {
			cell = " " + format.MdEscape(string(r.Design)) + " |"
		}
		fmt.Fprintf(b, "|%s %s | %s | %s | %s | %s | %s | %s | %s |\n", cell, format.MdEscape(effectName(r)), format.MdEscape(injected(r)), runsOf(r), rateOf(r),
			pctOrQ(r.MeanPct, "%+.1f%%"), pctOrQ(r.MeanMDE, "±%.1f%%"), pctOrQ(r.MeanRnds, "%.1f"), pctOrQ(r.MeanTook, "%.1f"))
	}
	if ds := calibrate.Designs(res.Rows); ds != nil {
		fmt.Fprintf(b, "\n## Designs per minute\n\nFrom the A/A runs: an MDE falls as the square root of the rounds, so a design's MDE in one minute "+
			"(mean MDE × √mean minutes) and the minutes it needs for ±1 %% (mean minutes × mean MDE²) compare designs whose rounds take different times.\n\n")
		fmt.Fprintf(b, "| design | A/A runs | mean MDE | mean minutes | MDE in one minute | minutes for ±1 %% |\n|---|---:|---:|---:|---:|---:|\n")
		for _, d := range ds {
			fmt.Fprintf(b, "| %s | %d | %s | %s | %s | %s |\n", format.MdEscape(string(d.Design)), d.Runs, pctOrQ(d.MeanMDE, "±%.1f%%"), pctOrQ(d.MeanTook, "%.1f"),
				pctOrQ(d.MDEMinute, "±%.1f%%"), pctOrQ(d.MinutesFor1, "%.1f"))
		}
		fmt.Fprintf(b, "\n%s\n", format.MdEscape(designVerdict(ds)))
	}
	fmt.Fprintln(b)
	return b.Flush()
}
