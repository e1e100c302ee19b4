package history

import (
	"fmt"
	"math"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/internal/textsafe"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// What the renderers (package report/history) and the gate say about a
// history, its groups, points and change points.

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

// Title names a group: its machine and experiment edition.
func (g *Group) Title() string {
	s := "machine " + clean(format.Clip(g.Hostname, 48))
	if g.Host != g.Hostname && g.Host != "" {
		s += " (" + clean(format.Clip(g.Host, 16)) + ")"
	}
	if g.Hash != "" {
		s += ", experiment edition " + clean(hashLabel(g.Hash))
	}
	if g.Current {
		s += " (current)"
	}
	return s
}

// What is "regression", "improvement" or "change", with " (below MDE)"
// when the runs cannot resolve it and " (MDE unknown)" when their trials
// are too few for any MDE.
func (c *Change) What() string {
	if c.Outcome == stats.NotComparable {
		return "not comparable"
	}
	s := map[bool]string{true: "regression", false: "improvement"}[c.Outcome == stats.Worse]
	if c.Outcome == stats.Changed {
		s = "change"
	}
	switch {
	case math.IsInf(c.MDEPct, 0) || math.IsNaN(c.MDEPct):
		s += " (MDE unknown)"
	case !c.ExceedsMDE:
		s += " (below MDE)"
	}
	return s
}

// Verdict says what the change is and whether the runs resolve it.
func (c *Change) Verdict() string {
	if c.Outcome == stats.NotComparable {
		return "no verdict: " + c.Note
	}
	s := c.What()
	s = strings.TrimSuffix(strings.TrimSuffix(s, " (below MDE)"), " (MDE unknown)")
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
	id := clean(format.Clip(p.ID, 32))
	var parts []string
	if p.Commit != "" {
		parts = append(parts, clean(ShortCommit(p.Commit)))
	}
	if p.Version != "" && (by == ByVersion || p.Commit == "") {
		parts = append(parts, clean(format.Clip(p.Version, 24)))
	}
	if len(parts) == 0 {
		parts = append(parts, p.Started.UTC().Format("2006-01-02 15:04"))
	}
	return fmt.Sprintf("#%d %s (%s)", p.I+1, id, strings.Join(parts, ", "))
}

// Num prints a median with about four significant digits ("–" when
// unknown).
func Num(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "–"
	}
	return format.Num(x, 4)
}

// clean makes a string from a run safe for a terminal.
func clean(s string) string { return textsafe.CleanText(s) }
