package report

import (
	"bufio"
	"fmt"
	"io"

	"github.com/pgrst-lab/pgrst-lab/internal/textsafe"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// EndpointRow is one line of the per-endpoint table, its cells formatted
// (the Markdown, HTML and terminal reports share it).
type EndpointRow struct {
	Scenario, Variant, Name string
	Line                    int
	// Share is the line's share of requests, Min..P99 "baseline → variant"
	// (ms), Delta the P50's change, P the Holm-adjusted p-value.
	Share, Min, P50, P90, P95, P99 string
	Delta, P, MDE                  string
	Class                          string // better, worse, changed, "" (~ or untested)
	Tested                         bool
}

// EndpointRows are the per-line verdicts for a reader: changed lines on
// top (significant first, by size of change), then the others in file
// order, per scenario and variant as the verdicts list them.
func EndpointRows(v *stats.Verdicts) []EndpointRow {
	var out []EndpointRow
	for _, e := range stats.ChangedFirst(v.Endpoints) {
		r := EndpointRow{Scenario: e.Scenario, Variant: e.VariantName, Name: e.Name, Line: e.Line, Tested: e.Tested,
			Share: arrow(sharePct(e.BaseShare), sharePct(e.VarShare)),
			Min:   arrow(msOf(e.Base.MinMs, e.BaseShare), msOf(e.Var.MinMs, e.VarShare)),
			P50:   arrow(msOf(e.Base.P50Ms, e.BaseShare), msOf(e.Var.P50Ms, e.VarShare)),
			P90:   arrow(msOf(e.Base.P90Ms, e.BaseShare), msOf(e.Var.P90Ms, e.VarShare)),
			P95:   arrow(msOf(e.Base.P95Ms, e.BaseShare), msOf(e.Var.P95Ms, e.VarShare)),
			P99:   arrow(msOf(e.Base.P99Ms, e.BaseShare), msOf(e.Var.P99Ms, e.VarShare))}
		if !e.Tested {
			r.Delta, r.P, r.MDE = "not tested (one variant only)", "–", "–"
		} else {
			r.Delta, r.MDE = e.Row.Delta(), e.Row.MDEString()
			r.P = fmt.Sprintf("%.2g", e.HolmP)
			if e.Changed() {
				r.Class = string(e.Row.Outcome)
			}
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
		"names them), changed lines first. Figures in ms, baseline → variant (%s): medians over trials of each trial's "+
		"quantile; share is the line's share of a trial's requests. Test: %s; p is the Holm-adjusted p-value.",
		v.Baseline, stats.EndpointsMethod)
}

// mdEndpoints writes the per-endpoint table under a heading of that level
// ("##"), nothing without endpoints.
func mdEndpoints(b *bufio.Writer, v *stats.Verdicts, heading string) {
	rows := EndpointRows(v)
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(b, "%s Verdict per endpoint, against %s\n\n", heading, format.MdEscape(v.Baseline))
	fmt.Fprintf(b, "| endpoint | line | scenario | variant | share | min | P50 | P90 | P95 | P99 | P50 vs %s | p (Holm) | mde |\n", format.MdEscape(v.Baseline))
	fmt.Fprintf(b, "|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, r := range rows {
		d := r.Delta
		if r.Class != "" {
			d = fmt.Sprintf("**%s** %s", d, r.Class)
		}
		fmt.Fprintf(b, "| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", format.MdCode(r.Name), r.Line,
			format.MdEscape(r.Scenario), format.MdEscape(r.Variant), r.Share, r.Min, r.P50, r.P90, r.P95, r.P99, d, r.P, r.MDE)
	}
	fmt.Fprintln(b)
	fmt.Fprint(b, format.MdPara(format.MdEscape(endpointsNote(v))))
}

// terminalEndpoints lists the flagged lines (nothing without endpoints).
func terminalEndpoints(w io.Writer, v *stats.Verdicts) {
	rows := EndpointRows(v)
	if len(rows) == 0 {
		return
	}
	flagged := 0
	for _, r := range rows {
		if r.Class != "" {
			flagged++
		}
	}
	fmt.Fprintf(w, "\nEndpoints: %d of %d lines changed (P50, Holm across lines)\n", flagged, len(rows))
	for _, r := range rows {
		if r.Class != "" {
			textsafe.Fprintf(w, "  %-8s %s  %s: P50 %s ms, %s (p %s)  [line %d]\n", r.Class, r.Name, r.Variant, r.P50, r.Delta, r.P, r.Line)
		}
	}
}
