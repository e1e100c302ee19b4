package report

import (
	"fmt"

	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// noiseMark follows a median whose interval is wider than ±NoiseLimit of
// it: the tables mark the cell instead of listing one warning per variant
// and metric.
const noiseMark = "!"

// Cell is summary(s) with the noise mark: "2371 ±12%!".
func Cell(s stats.Summary) string {
	if s.Noisy() {
		return summary(s) + noiseMark
	}
	return summary(s)
}

// noiseLegend is the one line that explains the mark.
func noiseLegend() string {
	return fmt.Sprintf("%s after a figure: its median (or the baseline's) has a %.0f%% interval wider than ±%.0f%% of it (noisy; more trials or a quieter machine would sharpen it)",
		noiseMark, 100*stats.Confidence, 100*stats.NoiseLimit)
}

// anyNoisy reports whether a row of v has a noisy median.
func anyNoisy(rows []stats.Row) bool {
	for _, r := range rows {
		if r.Baseline.Noisy() || r.Variant.Noisy() {
			return true
		}
	}
	return false
}

// otherWarnings collects the distinct warnings of rows that are not noise
// warnings (those are marks in the cells).
func otherWarnings(rows []stats.Row) []string {
	var ws []string
	for _, r := range rows {
		ws = append(ws, r.OtherWarnings()...)
	}
	return distinct(ws)
}

// distinct is ss without repeats, in first-seen order.
func distinct(ss []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
