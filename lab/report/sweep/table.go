package sweep

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// row is one value's row of a scenario's table.
type row struct {
	Cells       []string
	Recommended bool
	Best        bool
}

// metricTitle names a curve's metric, "throughput (req/s)"; with the
// search model the throughput is the highest rate meeting the latency
// limit.
func metricTitle(run *lab.Run, m lab.Metric) string {
	if m.Name == "rate" && run.Experiment.Load.Model.SearchesEachTrial() {
		return "highest rate within the limit (req/s)"
	}
	return m.Label + " (" + m.Unit + ")"
}

// metrics are the sweep's metrics (stats.SweepResult.Metrics) measured in
// it.
func metrics(sw *stats.SweepResult) []lab.Metric {
	var out []lab.Metric
	for _, name := range sw.Metrics {
		m, _ := lab.MetricByName(name)
		for _, sc := range sw.Scenarios {
			if slices.ContainsFunc(sc.Points, func(p stats.SweepPointResult) bool { _, ok := p.Metrics[name]; return ok }) {
				out = append(out, m)
				break
			}
		}
	}
	return out
}

// table is the header and rows of one scenario's table: value(s), then
// the median ± CI of each metric; marks the recommended and best.
func table(run *lab.Run, sw *stats.SweepResult, sc stats.SweepScenario) ([]string, []row) {
	ms := metrics(sw)
	header := []string{}
	for _, k := range sw.Keys {
		header = append(header, axisLabel(k))
	}
	for _, m := range ms {
		header = append(header, metricTitle(run, m))
	}
	var rows []row
	for _, p := range sc.Points {
		r := row{Recommended: p.Variant == sc.Recommendation.Cheapest, Best: p.Variant == sc.Recommendation.Best}
		for _, v := range p.Values {
			r.Cells = append(r.Cells, valueLabel(v))
		}
		for _, m := range ms {
			s := p.Metrics[m.Name]
			r.Cells = append(r.Cells, format.Median(s.N, s.Median, s.SpreadPct()))
		}
		rows = append(rows, r)
	}
	return header, rows
}

func axisLabel(key string) string {
	if _, k, ok := strings.Cut(key, "."); ok {
		return k
	}
	return key
}

func valueLabel(v string) string {
	if strings.TrimSpace(v) == "" {
		return "default"
	}
	return v
}

func note(sw *stats.SweepResult) string {
	return fmt.Sprintf("Swept %s; values from cheapest to dearest (%s). The recommendation is the cheapest value the verdicts' test "+
		"cannot tell from the best (a difference counts when significant and at least the minimum detectable effect); "+
		"▶ marks it, ★ the best.", strings.Join(sw.Keys, " × "), sw.Order)
}

func marks(r row) string {
	var m []string
	if r.Recommended {
		m = append(m, "▶ recommended")
	}
	if r.Best {
		m = append(m, "★ best")
	}
	return strings.Join(m, " ")
}
