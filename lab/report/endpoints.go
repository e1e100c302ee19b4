package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/internal/textsafe"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// EndpointRow is one line of the per-endpoint table, its cells formatted
// (the Markdown, HTML and terminal reports share it).
type EndpointRow struct {
	Scenario, Variant, Name string
	Line                    int
	// Share is the line's share of requests, "baseline → variant".
	Share string
	// Quantiles are P0, P50, P90, P95 and P99 (stats.EndpointQuantiles).
	Quantiles []QuantileCell
	// Changed is true when any quantile changed significantly.
	Changed bool
	Tested  bool
}

// QuantileCell is one quantile of a line: Values "baseline → variant"
// (ms), its change, Holm-adjusted p-value, MDE and class.
type QuantileCell struct {
	Name, Values, Delta, P, MDE, Class string
}

// Verdict is the cell's second line: "+12.3% worse (p 0.004)" for a
// significant change, "~ (mde ±3.1%)" else, "not tested" for a line only
// one variant answered.
func (c QuantileCell) Verdict() string {
	switch {
	case c.Class != "":
		return fmt.Sprintf("%s %s (p %s)", c.Delta, c.Class, c.P)
	case c.MDE == "–":
		return c.Delta
	}
	return fmt.Sprintf("~ (mde %s)", c.MDE)
}

// EndpointRows are the per-line verdicts for a reader: changed lines on
// top (significant first, by size of change), then the others in file
// order, per scenario and variant as the verdicts list them.
func EndpointRows(v *stats.Verdicts) []EndpointRow {
	var out []EndpointRow
	for _, e := range stats.ChangedFirst(v.Endpoints) {
		r := EndpointRow{Scenario: e.Scenario, Variant: e.VariantName, Name: e.Name, Line: e.Line, Tested: e.Tested,
			Share: arrow(sharePct(e.BaseShare), sharePct(e.VarShare)), Changed: e.ChangedAny()}
		base, vari := e.Base.Quantiles(), e.Var.Quantiles()
		for i, q := range e.Quantiles {
			c := QuantileCell{Name: q.Name, Values: arrow(msOf(base[i], e.BaseShare), msOf(vari[i], e.VarShare))}
			if !e.Tested {
				c.Delta, c.P, c.MDE = "not tested", "–", "–"
			} else {
				c.Delta, c.MDE, c.P = q.Row.Delta(), q.Row.MDEString(), fmt.Sprintf("%.2g", q.HolmP)
				if q.Row.Significant {
					c.Class = string(q.Row.Outcome)
				}
			}
			r.Quantiles = append(r.Quantiles, c)
		}
		out = append(out, r)
	}
	return out
}

func arrow(a, b string) string { return a + " → " + b }

// msOf is a latency cell, "–" for a variant without the line (no share).
func msOf(v, share float64) string {
	if share == 0 {
		return "–"
	}
	return num(v)
}

func sharePct(v float64) string {
	if v == 0 {
		return "–"
	}
	return num(v) + "%"
}

// endpointsNote explains the table.
func endpointsNote(v *stats.Verdicts) string {
	return fmt.Sprintf("One row per targets-file line and answer status (\"STATUS METHOD PATH\", as postgrest-loadtest-report "+
		"names them), changed lines first. Each cell: the quantile in ms, baseline → variant (%s), medians over trials of "+
		"each trial's quantile (P0 is the fastest answer), then its change and Holm-adjusted p, or ~ and the smallest change "+
		"the run could have seen (mde); share is the line's share of a trial's requests. Test: %s.",
		v.Baseline, stats.EndpointsMethod)
}

// endpointsOutOfReach says, per comparison, why no line could have been
// found changed, where none could (stats.LinesReach).
func endpointsOutOfReach(v *stats.Verdicts) []string {
	var out []string
	for _, l := range v.LinesReach() {
		if s := l.Sentence(); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// mdEndpoints writes the per-endpoint table under a heading of that level
// ("##"), nothing without endpoints.
func mdEndpoints(b *bufio.Writer, v *stats.Verdicts, heading string) {
	rows := EndpointRows(v)
	if len(rows) == 0 {
		return
	}
	// One name column: the scenario and the variant only when they vary
	// (a targets file replayed by two builds is one of each).
	scenarios, variants := map[string]bool{}, map[string]bool{}
	for _, r := range rows {
		scenarios[r.Scenario], variants[r.Variant] = true, true
	}
	manyS, manyV := len(scenarios) > 1, len(variants) > 1
	fmt.Fprintf(b, "%s Verdict per endpoint, against %s (changed lines first)\n\n", heading, format.MdEscape(v.Baseline))
	head, sep := "| endpoint |", "|---|"
	if manyS {
		head, sep = head+" scenario |", sep+"---|"
	}
	if manyV {
		head, sep = head+" variant |", sep+"---|"
	}
	fmt.Fprintf(b, "%s share |", head)
	for _, q := range stats.EndpointQuantiles {
		fmt.Fprintf(b, " %s |", q)
	}
	fmt.Fprintf(b, "\n%s---:|%s\n", sep, strings.Repeat("---:|", len(stats.EndpointQuantiles)))
	for _, r := range rows {
		fmt.Fprintf(b, "| %s |", format.MdCode(r.Name))
		if manyS {
			fmt.Fprintf(b, " %s |", format.MdEscape(r.Scenario))
		}
		if manyV {
			fmt.Fprintf(b, " %s |", format.MdEscape(r.Variant))
		}
		fmt.Fprintf(b, " %s |", r.Share)
		for _, c := range r.Quantiles {
			verdict := c.Verdict()
			if c.Class != "" {
				verdict = fmt.Sprintf("**%s %s** (p %s)", c.Delta, c.Class, c.P)
			}
			fmt.Fprintf(b, " %s<br>%s |", c.Values, verdict)
		}
		fmt.Fprintln(b)
	}
	fmt.Fprintln(b)
	for _, w := range endpointsOutOfReach(v) {
		fmt.Fprint(b, format.MdPara("**Out of reach:** "+format.MdEscape(w)+"."))
	}
	fmt.Fprint(b, format.MdPara(format.MdEscape(endpointsNote(v))))
}

// terminalEndpoints lists the lines with a changed quantile (nothing
// without endpoints).
func terminalEndpoints(w io.Writer, v *stats.Verdicts) {
	rows := EndpointRows(v)
	if len(rows) == 0 {
		return
	}
	flagged := 0
	for _, r := range rows {
		if r.Changed {
			flagged++
		}
	}
	fmt.Fprintf(w, "\nEndpoints: %d of %d lines changed (P0, P50, P90, P95, P99; Holm across lines)\n", flagged, len(rows))
	for _, s := range endpointsOutOfReach(v) {
		textsafe.Fprintf(w, "  out of reach: %s\n", s)
	}
	for _, r := range rows {
		if !r.Changed {
			continue
		}
		class := ""
		var changed []string
		for _, c := range r.Quantiles {
			if c.Class != "" {
				changed = append(changed, fmt.Sprintf("%s %s (p %s)", c.Name, c.Delta, c.P))
				if class == "" {
					class = c.Class
				} else if class != c.Class {
					class = "changed"
				}
			}
		}
		textsafe.Fprintf(w, "  %-8s %s  %s: P50 %s ms; %s  [line %d]\n", class, r.Name, r.Variant, r.Quantiles[1].Values, strings.Join(changed, ", "), r.Line)
	}
}
