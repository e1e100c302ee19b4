package post

import (
	"bufio"
	"fmt"
	"math"
	"strconv"

	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// comparison is one later run against the first (the baseline), per
// scenario both ran: the limits' change (stats.CompareLimits, the rate
// rows).
type comparison struct {
	Base, Other *Source
	Rows        []stats.Row
}

// comparisons compare every run after the first with the first.
func comparisons(srcs []Source) []comparison {
	var out []comparison
	for i := 1; i < len(srcs); i++ {
		a, b := &srcs[0], &srcs[i]
		v := stats.CompareLimits(a.Run, b.Run, a.Label, b.Label, 0)
		c := comparison{Base: a, Other: b}
		for _, r := range v.Rows {
			if r.Metric.Name == "rate" {
				c.Rows = append(c.Rows, r)
			}
		}
		out = append(out, c)
	}
	return out
}

// pct is a change in percent as the article writes it: "4.1 %".
func pct(v float64) string { return format.Num(math.Abs(v), 2) + " %" }

// signed is a bound of an interval of a change: "+1.2 %", "−3.4 %".
func signed(v float64) string {
	if v < 0 {
		return "−" + pct(v)
	}
	return "+" + pct(v)
}

// interval is the row's interval of the change that goes with its test
// (Row.ShiftCI: it excludes 0 exactly when the test found a change), or
// why it has none.
func interval(r stats.Row) string {
	_, lo, hi, ok := r.ShiftCI()
	if !ok {
		return fmt.Sprintf("no interval with %d+%d trials", r.Baseline.N, r.Variant.N)
	}
	return signed(lo) + " to " + signed(hi)
}

// sentence says one row in words: "PostgREST 14.17 sustained 4.1 % more
// than PostgREST 13.0.8 on GETSingle (95 % interval of the change +1.2 %
// to +7.0 %; p=0.100 n=3)".
func sentence(c comparison, r stats.Row) string {
	a, b := c.Base.Label, c.Other.Label
	tail := fmt.Sprintf(" (%s interval of the change %s; %s)", confidence(r), interval(r), r.PString())
	switch {
	case r.Baseline.N == 0 || r.Variant.N == 0 || math.IsNaN(r.DeltaPct) || math.IsInf(r.DeltaPct, 0):
		return fmt.Sprintf("%s and %s cannot be compared on %s: one met no rate.", b, a, r.Scenario)
	case !r.Significant:
		return fmt.Sprintf("%s and %s could not be told apart on %s: %s apart%s.", b, a, r.Scenario, pct(r.DeltaPct), tail)
	case r.DeltaPct > 0:
		return fmt.Sprintf("%s sustained %s more than %s on %s%s.", b, pct(r.DeltaPct), a, r.Scenario, tail)
	}
	return fmt.Sprintf("%s sustained %s less than %s on %s%s.", b, pct(r.DeltaPct), a, r.Scenario, tail)
}

// mdComparisons writes each comparison as a table and in words.
func mdComparisons(b *bufio.Writer, cmp []comparison) {
	for _, c := range cmp {
		if len(c.Rows) == 0 {
			continue
		}
		fmt.Fprintf(b, "## %s against %s\n\n", format.MdEscape(c.Other.Label), format.MdEscape(c.Base.Label))
		fmt.Fprint(b, format.MdPara(format.MdEscape(fmt.Sprintf("Each scenario's limit of %s over %s's: the change of the medians, "+
			"the interval of the change that goes with the test (Hodges–Lehmann: of every trial's limit over every baseline trial's, "+
			"at the level the test was judged at), and the Mann-Whitney test's p-value (the runs' trials are not paired); "+
			"an interval excludes 0 exactly when the test found a change.",
			c.Other.Label, c.Base.Label))))
		fmt.Fprintf(b, "| scenario | %s req/s | %s req/s | change | interval | test | could see |\n",
			format.MdEscape(c.Base.Label), format.MdEscape(c.Other.Label))
		fmt.Fprint(b, "|---|---:|---:|---:|---:|---|---:|\n")
		for _, r := range c.Rows {
			change := "–"
			if !math.IsNaN(r.DeltaPct) && !math.IsInf(r.DeltaPct, 0) {
				change = signed(r.DeltaPct)
			}
			fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s |\n", format.MdEscape(r.Scenario), format.Num(r.Baseline.Median, 3),
				format.Num(r.Variant.Median, 3), change, interval(r), r.PString(), r.MDEString())
		}
		fmt.Fprintln(b)
		for _, r := range c.Rows {
			fmt.Fprintf(b, "- %s\n", format.MdEscape(sentence(c, r)))
		}
		fmt.Fprintln(b)
	}
}

// confidence is the level of the row's interval: "95 %", or the
// sequential design's stricter one.
func confidence(r stats.Row) string {
	if r.Threshold > 0 && r.Threshold < 1 {
		return strconv.FormatFloat(math.Round(1000*(1-r.Threshold))/10, 'f', -1, 64) + " %"
	}
	return "95 %"
}
