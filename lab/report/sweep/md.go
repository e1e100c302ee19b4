package sweep

import (
	"fmt"
	"io"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// Markdown writes the sweep's section of report.md (nothing without a
// sweep).
func Markdown(w io.Writer, run *lab.Run, v *stats.Verdicts) {
	sw := v.Sweep
	if sw == nil {
		return
	}
	fmt.Fprintf(w, "## Sweep: %s\n\n%s\n\n", format.MdEscape(strings.Join(sw.Keys, " × ")), format.Wrap(format.MdEscape(note(sw)), 110))
	for _, sc := range sw.Scenarios {
		fmt.Fprintf(w, "### %s\n\n%s\n\n", format.MdEscape(sc.Scenario), format.Wrap("**Recommendation:** "+format.MdEscape(sc.Recommendation.Sentence)+".", 110))
		header, rows := table(run, sw, sc)
		fmt.Fprintf(w, "| %s | |\n|%s---|\n", strings.Join(mdCells(header), " | "), strings.Repeat("---|", len(header)))
		for _, r := range rows {
			fmt.Fprintf(w, "| %s | %s |\n", strings.Join(mdCells(r.Cells), " | "), marks(r))
		}
		fmt.Fprintln(w)
		if ps := sc.Pool; ps != nil {
			fmt.Fprintf(w, "%s\n\n", format.Wrap("**"+format.MdEscape(poolNote(ps))+".**", 110))
			header, rows := poolTable(ps)
			fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(mdCells(header), " | "), strings.Repeat("---|", len(header)))
			for _, r := range rows {
				fmt.Fprintf(w, "| %s |\n", strings.Join(mdCells(r), " | "))
			}
			fmt.Fprintln(w)
		}
	}
}

// mdCells escapes a row's cells: the keys and values come from the
// experiment file (run.json).
func mdCells(cells []string) []string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = format.MdEscape(c)
	}
	return out
}
