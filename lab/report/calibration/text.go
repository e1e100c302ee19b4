package calibration

import (
	"fmt"
	"io"

	"github.com/pgrst-lab/pgrst-lab/internal/textsafe"
	"github.com/pgrst-lab/pgrst-lab/lab/calibrate"
)

// Text writes the power curve as a plain-text table.
func Text(w io.Writer, res *calibrate.Result) {
	if res.Sizing != nil {
		textsafe.Fprintf(w, "%s\n", res.Sizing.String())
	}
	textsafe.Fprintf(w, "%s%-8s %-10s %-6s %-22s %-10s %-8s %-8s %s\n", designHead(res), "effect", "injected", "runs", "declared a difference", "measured", "mde", "rounds", "minutes")
	for _, r := range res.Rows {
		textsafe.Fprintf(w, "%s%-8s %-10s %-6s %-22s %-10s %-8s %-8s %s\n", designCell(res, r), effectName(r), injected(r), runsOf(r), rateOf(r),
			pctOrQ(r.MeanPct, "%+.1f%%"), pctOrQ(r.MeanMDE, "±%.1f%%"), pctOrQ(r.MeanRnds, "%.1f"), pctOrQ(r.MeanTook, "%.1f"))
	}
	if ds := calibrate.Designs(res.Rows); ds != nil {
		fmt.Fprintln(w)
		for _, d := range ds {
			textsafe.Fprintf(w, "%s\n", d.String())
		}
		textsafe.Fprintf(w, "%s\n", designVerdict(ds))
	}
}
