package post

import (
	"bufio"
	"fmt"

	"github.com/pgrst-lab/pgrst-lab/lab/report"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// limit is one scenario of one column: the run report's limits row and
// its cells (report.LimitsCells: every figure formatted as there).
type limit struct {
	Col   column
	Row   stats.LimitRow
	Cells report.LimitCells
}

// limitRows are the limits of every column, scenario by scenario (in
// scenarios' order), columns in order within each.
func limitRows(srcs []Source, cols []column) []limit {
	per := map[*Source][]limit{}
	for i := range srcs {
		s := &srcs[i]
		rows, cells := stats.Limits(s.Run), report.LimitsCells(s.Run)
		for j := range rows {
			if j < len(cells) {
				per[s] = append(per[s], limit{Row: rows[j], Cells: cells[j]})
			}
		}
	}
	var out []limit
	for _, sc := range scenarios(srcs) {
		for _, c := range cols {
			for _, l := range per[c.Src] {
				if l.Row.Scenario == sc && l.Row.Variant == c.Variant {
					l.Col = c
					out = append(out, l)
				}
			}
		}
	}
	return out
}

// mdLimits is the headline table: per scenario and run, the highest rate
// within the limit with its interval, the trials, and the CPU per
// request.
func mdLimits(b *bufio.Writer, lim []limit) {
	if len(lim) == 0 {
		return
	}
	fmt.Fprint(b, "## Limits\n\n")
	fmt.Fprint(b, format.MdPara(format.MdEscape(report.LimitsIntro(lim[0].Col.Src.Run))))
	fmt.Fprint(b, "| scenario | run | req/s | interval | p99 ms | failed | server µs/req | db µs/req | peak RSS | trials |\n")
	fmt.Fprint(b, "|---|---|---:|---:|---:|---:|---:|---:|---:|---|\n")
	for _, l := range lim {
		c := l.Cells
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			format.MdEscape(c.Scenario), format.MdEscape(l.Col.Name), c.Rate, orDash(c.Spread), orDash(c.P99), orDash(c.Failed),
			orDash(c.ServerUs), orDash(c.DBUs), orDash(c.PeakRSS), format.MdEscape(c.Trials))
	}
	fmt.Fprintln(b)
}

func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}
