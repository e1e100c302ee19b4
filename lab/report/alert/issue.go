package alert

import (
	"fmt"
	"io"

	"github.com/pgrst-lab/pgrst-lab/lab/history"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
)

// IssueTitle is a title for the issue of change points fs.
func IssueTitle(h *history.History, fs []history.Found) string {
	return fmt.Sprintf("pgrst-lab: %d new change point(s) in %s", len(fs), clean(h.Experiment))
}

// Issue writes the Markdown body of an issue about change points fs of
// history h: one row per change point (its size, series, commits, p, MDE
// and id), then how to look closer and how to acknowledge one.
func Issue(w io.Writer, h *history.History, fs []history.Found) error {
	fmt.Fprintf(w, "### %s\n\n", format.MdEscape(IssueTitle(h, fs)))
	fmt.Fprint(w, format.MdPara("`lab track` found these change points of "+format.MdEscape(fmt.Sprintf("%s (runs ordered %s), each beyond its runs' MDE.",
		h.Experiment, h.OrderDesc()))))
	fmt.Fprintln(w, "| change | what | series | machine | between | p | MDE | id |")
	fmt.Fprintln(w, "|---:|---|---|---|---|---:|---:|---|")
	for _, f := range fs {
		m := MessageOf(h, f)
		fmt.Fprintf(w, "| %+.1f%% | %s | %s | %s | %s .. %s | %.2g | ±%.1f%% | %s |\n", m.ChangePct, m.Kind,
			format.MdEscape(f.Series.Name()), format.MdEscape(m.Host), format.MdCode(short(m.Before)), format.MdCode(short(m.After)),
			m.P, m.MDEPct, format.MdCode(m.ID))
	}
	fmt.Fprintln(w)
	fmt.Fprint(w, format.MdPara("Each change happened after the first commit of its pair and at or before the second. "+
		"`lab history --store URI "+format.MdEscape(h.Experiment)+"` shows the series; "+
		"`lab history ack ID --note '...'` acknowledges a change point: it is marked, and no alert is sent about it again."))
	fmt.Fprintln(w, "<details><summary>The runs either side</summary>")
	fmt.Fprintln(w)
	for _, f := range fs {
		c := f.Change
		fmt.Fprint(w, format.MdItem(fmt.Sprintf("%s: %s → %s", format.MdCode(c.ID), format.MdEscape(c.Before.Describe(h.By)+" at "+c.Before.Ref),
			format.MdEscape(c.After.Describe(h.By)+" at "+c.After.Ref))))
	}
	fmt.Fprintln(w)
	_, err := fmt.Fprintln(w, "</details>")
	return err
}
