package post

import (
	"fmt"
	"math"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/lab/report"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// summary is the headline numbers in two sentences, every figure as the
// tables below state it: each run's limits, then the largest significant
// change between the runs (or, of one run, what a request cost).
func summary(srcs []Source, lim []limit, cmp []comparison) []string {
	if len(lim) == 0 {
		return verdictSummary(srcs)
	}
	var parts []string
	for _, c := range columns(srcs) {
		var got []string
		for _, l := range lim {
			if l.Col.Name == c.Name && l.Row.Rate.N > 0 {
				got = append(got, fmt.Sprintf("%s req/s on %s", l.Cells.Rate, l.Row.Scenario))
			}
		}
		if len(got) > 0 {
			parts = append(parts, c.Name+" sustained "+list(got))
		}
	}
	if len(parts) == 0 {
		return []string{"No run met its limit on any scenario.", "The tables below say what each trial met."}
	}
	first := "Within the limit (the median of each scenario's trials), " + strings.Join(parts, "; ") + "."
	return []string{first, second(lim, cmp)}
}

// second is the summary's second sentence: the largest significant change
// of the comparisons, or that there was none; without a comparison, the
// CPU per request of the first scenario that measured it.
func second(lim []limit, cmp []comparison) string {
	if len(cmp) > 0 {
		var best *comparison
		bi := -1
		for ci := range cmp {
			for ri, r := range cmp[ci].Rows {
				if r.Significant && !math.IsInf(r.DeltaPct, 0) && !math.IsNaN(r.DeltaPct) &&
					(bi < 0 || math.Abs(r.DeltaPct) > math.Abs(best.Rows[bi].DeltaPct)) {
					best, bi = &cmp[ci], ri
				}
			}
		}
		if best != nil {
			return sentence(*best, best.Rows[bi])
		}
		return fmt.Sprintf("No scenario's limit differed between %s and %s beyond the noise of the trials.",
			cmp[0].Base.Label, cmp[0].Other.Label)
	}
	for _, l := range lim {
		if c := l.Cells; c.ServerUs != "" && c.ServerUs != "–" {
			s := fmt.Sprintf("At that rate on %s, %s spent %s µs of CPU per request", l.Row.Scenario, l.Col.Name, c.ServerUs)
			if c.DBUs != "" && c.DBUs != "–" {
				s += fmt.Sprintf(" and PostgreSQL %s µs", c.DBUs)
			}
			return s + "."
		}
	}
	return "The methodology below says how each figure was measured."
}

// list joins items in prose: "a", "a and b", "a, b and c".
func list(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// verdictSummary is the summary of runs that searched no limit (an A/B
// run, a sweep): the first run's headline verdicts that found a change,
// or that none did and how small a change it could see.
func verdictSummary(srcs []Source) []string {
	for _, s := range srcs {
		v := stats.Compare(s.Run, 0)
		rows := v.Headlines()
		if len(rows) == 0 {
			continue
		}
		metric := v.Primary.Label
		var found, mdes []string
		for _, r := range rows {
			if r.Significant && (r.Outcome == stats.Better || r.Outcome == stats.Worse) {
				found = append(found, fmt.Sprintf("%s changed %s by %s against %s on %s (%s, the run could see ±%s)",
					r.VariantName, metric, r.Delta(), v.Baseline, r.Scenario, r.PString(), strings.TrimPrefix(r.MDEString(), "±")))
			} else {
				mdes = append(mdes, r.MDEString())
			}
		}
		scs := fmt.Sprintf("%d scenarios", len(v.Scenarios))
		if len(v.Scenarios) == 1 {
			scs = v.Scenarios[0]
		}
		first := fmt.Sprintf("%s compared %s with the baseline %s on %s, %s trials each.", s.Label, list(v.Variants), v.Baseline,
			scs, report.TrialCounts(s.Run))
		if len(found) == 0 {
			return []string{first, fmt.Sprintf("No variant changed %s beyond the noise; the smallest changes the run could see were %s.", metric, list(mdes))}
		}
		return []string{first, strings.Join(found, "; ") + "."}
	}
	return []string{"No run compared variants or met a limit.", "The tables below say what each trial measured."}
}
