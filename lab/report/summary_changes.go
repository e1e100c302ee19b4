package report

import (
	"bufio"
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// summaryChangesShown is the most significant changes the summary lists
// before the tables; the rest are counted.
const summaryChangesShown = 12

// change is a significant row and whether it holds across the metrics of
// its comparison (Holm-Bonferroni over them: at alpha 0.05 on each of 15
// metrics, a run where nothing changed reads about one significant by
// chance).
type change struct {
	stats.Row
	holds bool
}

// significantRows are every significant change of v, of any metric and
// of any tested line's quantile (those are Holm-adjusted across the lines
// already), the largest first.
func significantRows(v *stats.Verdicts) []change {
	var out []change
	ok := func(r stats.Row) bool {
		return r.Significant && r.Baseline.N > 0 && r.Variant.N > 0 && !math.IsNaN(r.DeltaPct) && r.Outcome != stats.NotComparable
	}
	type key struct{ scenario, variant string }
	groups := map[key][]stats.Row{}
	var order []key
	for _, r := range v.Rows {
		k := key{r.Scenario, r.VariantName}
		if _, seen := groups[k]; !seen {
			order = append(order, k)
		}
		groups[k] = append(groups[k], r)
	}
	for _, k := range order {
		rows := groups[k]
		held := holm(rows)
		for i, r := range rows {
			if ok(r) {
				out = append(out, change{r, held[i]})
			}
		}
	}
	for _, e := range v.Endpoints {
		if e.Tested {
			for _, q := range e.Quantiles {
				if ok(q.Row) {
					out = append(out, change{q.Row, true})
				}
			}
		}
	}
	slices.SortStableFunc(out, func(a, b change) int { return cmp.Compare(math.Abs(b.DeltaPct), math.Abs(a.DeltaPct)) })
	return out
}

// holm marks the rows whose p-value holds Holm-Bonferroni across all the
// rows tested (stats.HolmAdjust), each against its own threshold.
func holm(rows []stats.Row) []bool {
	var idx []int
	var ps []float64
	for i, r := range rows {
		if !math.IsNaN(r.P) && r.Outcome != stats.NotComparable {
			idx, ps = append(idx, i), append(ps, r.P)
		}
	}
	held := make([]bool, len(rows))
	for k, adj := range stats.HolmAdjust(ps) {
		held[idx[k]] = adj <= rows[idx[k]].Threshold
	}
	return held
}

// mdChanges writes, right after the gate's decision, every significant
// change of any metric (peak RSS as much as the gated CPU), largest
// first: the news of a comparison, before its tables. Each says whether
// it holds across all the metrics compared, or could be one of the
// chance readings that many tests give.
func mdChanges(b *bufio.Writer, vs []*stats.Verdicts) {
	var rows []change
	for _, v := range vs {
		rows = append(rows, significantRows(v)...)
	}
	if len(rows) == 0 {
		fmt.Fprintf(b, "No significant change of any metric.\n\n")
		return
	}
	fmt.Fprintf(b, "**Significant changes** (%d, largest first; \"holds\" when it stays significant across all the metrics compared, Holm):\n\n", len(rows))
	for i, r := range rows {
		if i == summaryChangesShown {
			fmt.Fprintf(b, "- … and %d more in the tables below.\n", len(rows)-i)
			break
		}
		across := "by itself only: could be chance among many metrics"
		if r.holds {
			across = "holds"
		}
		fmt.Fprint(b, format.MdItem(format.MdEscape(fmt.Sprintf("%s: %s vs %s: %s %s (%s, %s; %s)",
			r.Scenario, r.VariantName, r.BaselineName, r.Metric.Label, r.Delta(), r.Outcome, r.PString(), across))))
	}
	fmt.Fprintln(b)
}
