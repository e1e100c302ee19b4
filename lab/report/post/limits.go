package post

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/postgrest"

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
	fmt.Fprint(b, format.MdPara(format.MdEscape(limitsIntro(lim[0].Col.Src.Run))))
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

// limitsIntro says what the article's limits table holds, column by
// column, in the run report's words for the limit.
func limitsIntro(run *lab.Run) string {
	what := "the highest rate within the limit (" + run.Experiment.Load.Limit.String() + "), the median over the trials"
	if run.Experiment.Load.Limit.Sustained() {
		what = "the highest offered rate the target sustained (" + run.Experiment.Load.Limit.String() + "), the median over the trials"
	}
	return "Per scenario and run, " + what + " and its interval; then, of the median trial, the P99 latency (from the " +
		"intended start) and the failed requests; CPU per request of PostgREST and of PostgreSQL (medians over the trials); " +
		"PostgREST's peak resident memory; the trials counted."
}

// mdBeside2020 puts the runs beside the 2020 benchmark: per scenario it
// ran, its rate there and its ratio to GETSingle, and each run's; only the
// ratios compare across machines.
func mdBeside2020(b *bufio.Writer, srcs []Source, cols []column, lim []limit) {
	var scs []string
	for _, sc := range scenarios(srcs) {
		if _, ok := postgrest.Benchmark2020[sc]; ok {
			scs = append(scs, sc)
		}
	}
	if len(scs) == 0 || len(lim) == 0 {
		return
	}
	fmt.Fprint(b, "## Beside the 2020 benchmark\n\n")
	ref := stats.RatioTo(srcs[0].Run)
	fmt.Fprint(b, format.MdPara(format.MdEscape(fmt.Sprintf("The %s, each scenario's rate there and over GETSingle's, beside "+
		"each run's rate and its ratio to %s. The machines differ, so only the ratios compare: in 2020 k6 drove the "+
		"server from another instance and counted every answer over the test's duration, with p(95) < 1 s as its "+
		"threshold; here the limit is the one stated above, and the cores are those the methodology lists.",
		postgrest.Benchmark2020Machine, ref))))
	fmt.Fprint(b, "| scenario | 2020 req/s | 2020 ratio |")
	for _, c := range cols {
		fmt.Fprintf(b, " %s req/s | ratio |", format.MdEscape(c.Name))
	}
	fmt.Fprint(b, "\n|---|---:|---:|"+strings.Repeat("---:|---:|", len(cols))+"\n")
	for _, sc := range scs {
		r, _ := postgrest.Benchmark2020Ratio(sc)
		fmt.Fprintf(b, "| %s | %s | %s |", format.MdEscape(sc), format.Num(postgrest.Benchmark2020[sc], 3), format.Num(r, 3))
		for _, c := range cols {
			rate, ratio := "–", "–"
			for _, l := range lim {
				if l.Col.Name == c.Name && l.Row.Scenario == sc && l.Row.Rate.N > 0 {
					rate, ratio = l.Cells.Rate, orDash(l.Cells.Ratio)
				}
			}
			fmt.Fprintf(b, " %s | %s |", rate, ratio)
		}
		fmt.Fprintln(b)
	}
	fmt.Fprintln(b)
}
