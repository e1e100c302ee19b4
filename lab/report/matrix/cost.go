package matrix

import (
	"fmt"
	"math"

	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// CostCell is one host's limit on a scenario and what a million requests
// cost there.
type CostCell struct {
	Host       string
	CPUs       int
	Rate       float64 // the highest rate within the limit (median), req/s
	PerHour    float64 // the host's price per hour (NaN when unpriced)
	PerMillion float64 // cost of a million requests at Rate (NaN when unknown)
}

// CostRow is one scenario across the hosts (the baseline variant), with
// the answer to "scale out or up?".
type CostRow struct {
	Scenario string
	Cells    []CostCell
	Answer   string
}

// Costs is the matrix's cost table: per scenario of a capacity search
// experiment with [cost] prices, each host's limit and cost per million
// requests; nil when the experiment searches no limits or prices nothing.
func (m *Matrix) Costs() []CostRow {
	var rows []CostRow
	index := map[string]int{}
	for _, h := range m.Hosts {
		if h.Run == nil || !h.Run.Experiment.Cost.Set() {
			continue
		}
		base := stats.BaselineName(h.Run)
		for _, r := range stats.Limits(h.Run) {
			if r.Variant != base {
				continue
			}
			i, ok := index[r.Scenario]
			if !ok {
				i = len(rows)
				index[r.Scenario] = i
				rows = append(rows, CostRow{Scenario: r.Scenario})
			}
			c := CostCell{Host: h.Label, CPUs: h.Run.Host.CPUs, Rate: r.Rate.Median, PerHour: math.NaN(), PerMillion: math.NaN()}
			if p, ok := h.Run.Experiment.Cost.PerHour(h.Label, h.Run.Host); ok {
				c.PerHour = p
				c.PerMillion = h.Run.Experiment.Cost.PerMillion(h.Label, h.Run.Host, r.Rate.Median)
			}
			rows[i].Cells = append(rows[i].Cells, c)
		}
	}
	for i := range rows {
		rows[i].Answer = scaleAnswer(rows[i].Cells)
	}
	return rows
}

// scaleAnswer compares the cheapest host per million requests with the
// host of the most cores: more of the cheap one ("scale out") or the big
// one ("scale up"), and by how much.
func scaleAnswer(cells []CostCell) string {
	cheap, big := -1, -1
	for i, c := range cells {
		if math.IsNaN(c.PerMillion) {
			continue
		}
		if cheap < 0 || c.PerMillion < cells[cheap].PerMillion {
			cheap = i
		}
		if big < 0 || c.CPUs > cells[big].CPUs || c.CPUs == cells[big].CPUs && c.Rate > cells[big].Rate {
			big = i
		}
	}
	switch {
	case cheap < 0:
		return "no host is priced"
	case len(cells) < 2:
		return fmt.Sprintf("%s: %s per million requests", cells[cheap].Host, format.Num(cells[cheap].PerMillion, 3))
	case cheap == big:
		return fmt.Sprintf("scale up: %s (%d CPUs) is also the cheapest per million requests", cells[big].Host, cells[big].CPUs)
	}
	c, b := cells[cheap], cells[big]
	n := math.Ceil(b.Rate / c.Rate)
	return fmt.Sprintf("scale out: %s serves a million requests for %s, %s (%d CPUs) for %s (%.1fx); %.0f x %s match %s's %s req/s",
		c.Host, format.Num(c.PerMillion, 3), b.Host, b.CPUs, format.Num(b.PerMillion, 3), b.PerMillion/c.PerMillion, n, c.Host, b.Host, format.Num(b.Rate, 3))
}

// mdCosts writes the cost table, when there is one.
func mdCosts(m *Matrix) string {
	rows := m.Costs()
	if len(rows) == 0 {
		return ""
	}
	s := "## Cost per million requests: scale out or up?\n\nPer scenario, each host's highest rate within the limit (the baseline's median) and what a million requests cost there at the experiment's [cost] prices.\n\n| scenario | host | CPUs | req/s | per hour | per 1M req |\n|---|---|---:|---:|---:|---:|\n"
	for _, r := range rows {
		for _, c := range r.Cells {
			s += fmt.Sprintf("| %s | %s | %d | %s | %s | %s |\n", format.MdEscape(r.Scenario), format.MdEscape(c.Host), c.CPUs, valueStr(c.Rate), valueStr(c.PerHour), valueStr(c.PerMillion))
		}
	}
	s += "\n"
	for _, r := range rows {
		s += fmt.Sprintf("- **%s**: %s\n", format.MdEscape(r.Scenario), format.MdEscape(r.Answer))
	}
	return s + "\n"
}
