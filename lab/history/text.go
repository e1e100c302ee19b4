package history

import (
	"fmt"
	"io"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/pgrst-lab/pgrst-lab/internal/textsafe"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
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

// Method says how the points and change points were made.
func (h *History) Method() string {
	return fmt.Sprintf("Points: per run the median and the half-width of its 95%% confidence interval, and the MDE: the smallest change "+
		"between two such runs that an unpaired test detects with 80%% power (alpha %g). Change points: E-Divisive means with a "+
		"t-test of the segments either side (as Otava), placed at the first run of the new level; each with the range where it happened "+
		"(the last run before .. the first after), its size with an interval, and whether it exceeds the runs' typical MDE.", h.Alpha)
}

// OrderDesc says how runs were ordered.
func (h *History) OrderDesc() string {
	switch {
	case h.By == ByCommit && h.Repo != "":
		return "by commit, in git's order of " + clean(h.Repo)
	case h.By == ByCommit:
		return "by commit, in the order commits were first measured"
	case h.By == ByVersion:
		return "by version"
	}
	return "by time"
}

// Text writes the history for a terminal: one block per series, its
// change points listed.
func Text(w io.Writer, h *History, o TextOptions) {
	fmt.Fprintf(w, "History of %s: %d run(s), %s.\n%s\n", clean(h.Experiment), h.Runs, h.OrderDesc(), wrap(h.Method(), 100))
	for _, warn := range h.Warnings {
		fmt.Fprintf(w, "warning: %s\n", clean(warn))
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
			fmt.Fprintf(w, "  %s  %s  %s\n", clean(clip(e.ID, 32)), clean(shortCommit(c)), e.Started.UTC().Format("2006-01-02 15:04"))
		}
	}
}

// Title names a group: its machine and experiment edition.
func (g *Group) Title() string {
	s := "machine " + clean(clip(g.Hostname, 48))
	if g.Host != g.Hostname && g.Host != "" {
		s += " (" + clean(clip(g.Host, 16)) + ")"
	}
	if g.Hash != "" {
		s += ", experiment edition " + clean(hashLabel(g.Hash))
	}
	if g.Current {
		s += " (current)"
	}
	return s
}

func writeSeries(w io.Writer, h *History, s *Series, o TextOptions) {
	ps := s.Points
	fmt.Fprintf(w, "\n%s (%s): %d run(s)  %s\n", clean(s.Name()), s.Metric.Unit, len(ps), sparkline(ps))
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
	changeAt := map[int]*Change{}
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
			marks = append(marks, marker{len(rows), fmt.Sprintf("─── %s %s ───", pctCI(c.Pct, c.LoPct, c.HiPct), c.What())})
		}
		row := []string{fmt.Sprint(i + 1), clean(clip(p.ID, 24))}
		if hasCommit {
			row = append(row, clean(shortCommit(p.Commit)))
		}
		if hasVersion {
			row = append(row, clean(clip(p.Version, 24)))
		}
		row = append(row, p.Started.UTC().Format("2006-01-02 15:04"), fmtNum(p.Median), spread(p.SpreadPct()), mdeStr(p.MDEPct))
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
		fmt.Fprintf(w, "    at #%d: %s, p %s, %s → %s, between %s and %s: %s\n", c.Index+1, pctCI(c.Pct, c.LoPct, c.HiPct), pStr(c.P),
			fmtNum(c.From), fmtNum(c.To), c.Before.Describe(h.By), c.After.Describe(h.By), c.Verdict())
	}
}

// What is "regression", "improvement" or "change", with " (below MDE)"
// when the runs cannot resolve it.
func (c *Change) What() string {
	s := map[bool]string{true: "regression", false: "improvement"}[c.Outcome == stats.Worse]
	if c.Outcome == stats.Changed {
		s = "change"
	}
	if !c.ExceedsMDE {
		s += " (below MDE)"
	}
	return s
}

// Verdict says what the change is and whether the runs resolve it.
func (c *Change) Verdict() string {
	s := c.What()
	s = strings.TrimSuffix(s, " (below MDE)")
	switch {
	case math.IsInf(c.MDEPct, 0) || math.IsNaN(c.MDEPct):
		return s + "; the runs' MDE is unknown (too few trials)"
	case c.ExceedsMDE:
		return fmt.Sprintf("%s, beyond the runs' MDE ±%.1f%%", s, c.MDEPct)
	}
	return fmt.Sprintf("%s, smaller than the runs' MDE ±%.1f%%: below what they can resolve one against another", s, c.MDEPct)
}

// Describe names a point's run: "#7 20261130-090000 (def5678)".
func (p Point) Describe(by Order) string {
	id := clean(clip(p.ID, 32))
	var parts []string
	if p.Commit != "" {
		parts = append(parts, clean(shortCommit(p.Commit)))
	}
	if p.Version != "" && (by == ByVersion || p.Commit == "") {
		parts = append(parts, clean(clip(p.Version, 24)))
	}
	if len(parts) == 0 {
		parts = append(parts, p.Started.UTC().Format("2006-01-02 15:04"))
	}
	return fmt.Sprintf("#%d %s (%s)", p.I+1, id, strings.Join(parts, ", "))
}

// shown says which points a series lists: all up to MaxRows, else the
// first 3, the last 8 and 2 either side of each change point.
func shown(s *Series, full bool) []bool {
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
func sparkline(ps []Point) string {
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

// fmtNum prints a median with about four significant digits ("–" when
// unknown).
func fmtNum(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "–"
	}
	return format.Num(x, 4)
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

// clean makes a string from a run safe for a terminal.
func clean(s string) string { return textsafe.CleanText(s) }

// wrap breaks text into lines of at most n runes at spaces.
func wrap(s string, n int) string {
	var lines []string
	var line []string
	l := 0
	for _, w := range strings.Fields(s) {
		wl := utf8.RuneCountInString(w)
		if l > 0 && l+1+wl > n {
			lines = append(lines, strings.Join(line, " "))
			line, l = nil, 0
		}
		if l > 0 {
			l++
		}
		line = append(line, w)
		l += wl
	}
	if len(line) > 0 {
		lines = append(lines, strings.Join(line, " "))
	}
	return strings.Join(lines, "\n")
}
