package sweep

import (
	"io"
	"slices"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/internal/textsafe"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// Text writes the sweep's recommendation and table per scenario for a
// terminal (nothing without a sweep).
func Text(w io.Writer, run *lab.Run, v *stats.Verdicts) {
	sw := v.Sweep
	if sw == nil {
		return
	}
	for _, sc := range sw.Scenarios {
		textsafe.Fprintf(w, "\nSweep %s, %s:\n", strings.Join(sw.Keys, " × "), sc.Scenario)
		header, rows := table(run, sw, sc)
		lines := [][]string{header}
		for _, r := range rows {
			lines = append(lines, append(slices.Clone(r.Cells), marks(r)))
		}
		format.Columns(w, "  ", lines)
		textsafe.Fprintf(w, "  Recommendation: %s.\n", sc.Recommendation.Sentence)
		if ps := sc.Pool; ps != nil {
			textsafe.Fprintf(w, "  %s.\n", poolNote(ps))
			header, rows := poolTable(ps)
			format.Columns(w, "  ", append([][]string{header}, rows...))
		}
	}
}
