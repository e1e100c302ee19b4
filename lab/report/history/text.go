package history

import (
	"fmt"
	"io"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/pgrst-lab/pgrst-lab/internal/textsafe"
	"github.com/pgrst-lab/pgrst-lab/lab/history"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
)

// TextOptions say how much Text writes.
type TextOptions struct {
	// Full lists every run of a series; otherwise a series of more than
	// MaxRows runs shows its first and last runs and those around change
	// points, with a note of how many were left out.
	Full bool
}

// MaxRows is the most runs a series lists without TextOptions.Full.
const MaxRows = 24

// Text writes the history for a terminal: one block per series, its
// change points listed.
func Text(w io.Writer, h *history.History, o TextOptions) {
	fmt.Fprintf(w, "History of %s: %d run(s), %s.\n%s\n", textsafe.CleanText(h.Experiment), h.Runs, h.OrderDesc(), format.Wrap(h.Method(), 100))
	for _, warn := range h.Warnings {
		fmt.Fprintf(w, "warning: %s\n", textsafe.CleanText(warn))
	}
	for _, g := range h.Groups {
		if len(h.Groups) > 1 {
			fmt.Fprintf(w, "\n== %s ==\n", g.Title())
		}
		for i := range g.Series {
			writeSeries(w, h, &g.Series[i], o)
		}
	}
	if len(h.Apart) > 0 {
		fmt.Fprintf(w, "\nApart (%d run(s) of a commit the repository does not have):\n", len(h.Apart))
		for _, e := range h.Apart {
			c := e.Commit
			if c == "" {
				c = "(no commit)"
			}
			fmt.Fprintf(w, "  %s  %s  %s\n", textsafe.CleanText(format.Clip(e.ID, 32)), textsafe.CleanText(history.ShortCommit(c)), e.Started.UTC().Format("2006-01-02 15:04"))
		}
	}
}

func writeSeries(w io.Writer, h *history.History, s *history.Series, o TextOptions) {
	ps := s.Points
	fmt.Fprintf(w, "\n%s (%s): %d run(s)  %s\n", textsafe.CleanText(s.Name()), s.Metric.Unit, len(ps), sparkline(ps))
	show := shown(s, o.Full)
	hasCommit, hasVersion := false, false
	for _, p := range ps {
		hasCommit = hasCommit || p.Commit != ""
		hasVersion = hasVersion || p.Version != ""
	}
	header := []string{"#", "run"}
	if hasCommit {
		header = append(header, "commit")
	}
	if hasVersion {
		header = append(header, "version")
	}
	header = append(header, "started", "median", "±CI", "MDE")
	rows := [][]string{header}
	type marker struct {
		before int // row index the marker precedes
		text   string
	}
	var marks []marker
	changeAt := map[int]*history.Change{}
	for i := range s.Changes {
		changeAt[s.Changes[i].Index] = &s.Changes[i]
	}
	gapFrom := -1
	flushGap := func(i int) {
		if gapFrom >= 0 {
			marks = append(marks, marker{len(rows), fmt.Sprintf("… %d run(s) not shown (--full lists them) …", i-gapFrom)})
			gapFrom = -1
		}
	}
	for i, p := range ps {
		if !show[i] {
			if gapFrom < 0 {
				gapFrom = i
			}
			continue
		}
		flushGap(i)
		if c := changeAt[i]; c != nil {
			ack := ""
			if c.Ack != nil {
				ack = " (acknowledged)"
			}
			marks = append(marks, marker{len(rows), fmt.Sprintf("─── %s %s%s ───", pctCI(c.Pct, c.LoPct, c.HiPct), c.What(), ack)})
		}
		row := []string{fmt.Sprint(i + 1), textsafe.CleanText(format.Clip(p.ID, 24))}
		if hasCommit {
			row = append(row, textsafe.CleanText(history.ShortCommit(p.Commit)))
		}
		if hasVersion {
			row = append(row, textsafe.CleanText(format.Clip(p.Version, 24)))
		}
		row = append(row, p.Started.UTC().Format("2006-01-02 15:04"), history.Num(p.Median), spread(p.SpreadPct()), mdeStr(p.MDEPct))
		rows = append(rows, row)
	}
	flushGap(len(ps))
	widths := make([]int, len(header))
	for _, r := range rows {
		for j, c := range r {
			widths[j] = max(widths[j], utf8.RuneCountInString(c))
		}
	}
	right := map[string]bool{"#": true, "median": true, "±CI": true, "MDE": true}
	mi := 0
	for ri, r := range rows {
		for mi < len(marks) && marks[mi].before == ri {
			fmt.Fprintf(w, "  %s\n", marks[mi].text)
			mi++
		}
		var b strings.Builder
		b.WriteString(" ")
		for j, c := range r {
			pad := strings.Repeat(" ", widths[j]-utf8.RuneCountInString(c))
			b.WriteString(" ")
			if right[header[j]] {
				b.WriteString(pad + c)
			} else {
				b.WriteString(c + pad)
			}
			b.WriteString(" ")
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
	for ; mi < len(marks); mi++ {
		fmt.Fprintf(w, "  %s\n", marks[mi].text)
	}
	if len(s.Changes) == 0 {
		fmt.Fprintln(w, "  no change point")
		return
	}
	fmt.Fprintln(w, "  change points:")
	for _, c := range s.Changes {
		fmt.Fprintf(w, "    at #%d: %s, p %s, %s → %s, between %s and %s: %s; id %s%s\n", c.Index+1, pctCI(c.Pct, c.LoPct, c.HiPct), pStr(c.P),
			history.Num(c.From), history.Num(c.To), c.Before.Describe(h.By), c.After.Describe(h.By), c.Verdict(), c.ID, c.AckNote())
	}
}

// shown says which points a series lists: all up to MaxRows, else the
// first 3, the last 8 and 2 either side of each change point.
func shown(s *history.Series, full bool) []bool {
	n := len(s.Points)
	show := make([]bool, n)
	if full || n <= MaxRows {
		for i := range show {
			show[i] = true
		}
		return show
	}
	mark := func(lo, hi int) {
		for i := max(lo, 0); i < min(hi, n); i++ {
			show[i] = true
		}
	}
	mark(0, 3)
	mark(n-8, n)
	for _, c := range s.Changes {
		mark(c.Index-2, c.Index+2)
	}
	return show
}

var sparks = []rune("▁▂▃▄▅▆▇█")

// sparkline draws the medians, at most 60 (the newest).
func sparkline(ps []history.Point) string {
	prefix := ""
	if len(ps) > 60 {
		ps, prefix = ps[len(ps)-60:], "…"
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range ps {
		lo, hi = math.Min(lo, p.Median), math.Max(hi, p.Median)
	}
	var b strings.Builder
	b.WriteString(prefix)
	for _, p := range ps {
		i := 0
		if hi > lo {
			i = int(math.Round((p.Median - lo) / (hi - lo) * float64(len(sparks)-1)))
		}
		b.WriteRune(sparks[i])
	}
	return b.String()
}

func spread(pct float64) string {
	if math.IsInf(pct, 0) || math.IsNaN(pct) {
		return "±?"
	}
	return fmt.Sprintf("±%.1f%%", pct)
}

func mdeStr(pct float64) string {
	if math.IsInf(pct, 0) || math.IsNaN(pct) {
		return "?"
	}
	return fmt.Sprintf("±%.1f%%", pct)
}

func pctCI(pct, lo, hi float64) string {
	s := fmt.Sprintf("%+.1f%%", pct)
	if !math.IsNaN(lo) && !math.IsNaN(hi) && !math.IsInf(lo, 0) && !math.IsInf(hi, 0) && lo != hi {
		s += fmt.Sprintf(" [%+.1f%%, %+.1f%%]", lo, hi)
	}
	return s
}

func pStr(p float64) string {
	if p < 0.001 {
		return "<0.001"
	}
	return fmt.Sprintf("%.3f", p)
}
