package matrix

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// Matrix is one experiment run on several hosts (`lab run --agent A
// --agent B ...`): each host's own run and verdicts, or why it failed,
// and how the hosts were scheduled.
type Matrix struct {
	Experiment string
	Title      string
	Started    time.Time
	// Concurrent says the hosts ran at the same time; Schedule says why
	// (or why one after another).
	Concurrent bool
	Schedule   string
	Hosts      []Host
}

// Host is one host of a matrix.
type Host struct {
	Label    string // short unique name (its hostname)
	URL      string // its agent
	Dir      string // its result directory ("" when none was written)
	Run      *lab.Run
	Verdicts *stats.Verdicts
	Error    string // why it failed; its run may still hold some trials
	// Generator is the driver's CPUs its load generator was pinned to ("" = any).
	Generator string
	// Versus is this host's run compared with the reference host's (see
	// Compare); nil for the reference and hosts without a run.
	Versus *stats.Verdicts
}

// Cell is one host's medians for a variant and scenario, with the
// ratio of each to the reference host's (NaN when either is unknown) and
// whether the difference is significant (nil when not tested: the
// reference host itself, or a side without trials).
type Cell struct {
	Host                          string
	Trials                        int
	Rate, P99, CPU                float64 // req/s, ms, server + database µs/req (NaN when unknown)
	RateRatio, P99Ratio, CPURatio float64
	RateTest, P99Test, CPUTest    *Test
}

// Test is a cell's unpaired test against the reference host: the
// Mann-Whitney U test of `lab compare` and hosts-*-vs-*.md (stats.CompareRuns).
type Test struct {
	P           float64 `json:"p"`
	Significant bool    `json:"significant"`
}

// Row is a variant across the hosts, one cell per host (in Hosts order).
type Row struct {
	Variant string
	Cells   []Cell
}

// Scenario is the cross-host table of one scenario.
type Scenario struct {
	Name string
	Rows []Row
}

// Reference is the index of the host the ratios are against: the first
// host with measured trials (-1 when none has).
func (m *Matrix) Reference() int {
	for i, h := range m.Hosts {
		if h.Run != nil && okTrials(h.Run) > 0 {
			return i
		}
	}
	return -1
}

// Failed lists the hosts that failed.
func (m *Matrix) Failed() []Host {
	var out []Host
	for _, h := range m.Hosts {
		if h.Error != "" {
			out = append(out, h)
		}
	}
	return out
}

func okTrials(run *lab.Run) int {
	n := 0
	for _, t := range run.Trials {
		if t.Error == "" {
			n++
		}
	}
	return n
}

// Table is the matrix's cross-host tables: per scenario (in the order the
// hosts' runs name them), per variant, each host's medians over its
// successful trials and their ratios to the reference host's.
func (m *Matrix) Table() []Scenario {
	var scenarios, variants []string
	for _, h := range m.Hosts {
		if h.Run == nil {
			continue
		}
		for _, sc := range h.Run.Experiment.Scenarios {
			if !slices.Contains(scenarios, sc) {
				scenarios = append(scenarios, sc)
			}
		}
		for _, v := range stats.VariantNames(h.Run) {
			if !slices.Contains(variants, v) {
				variants = append(variants, v)
			}
		}
	}
	ref := m.Reference()
	rate, _ := lab.MetricByName("rate")
	p99, _ := lab.MetricByName("p99")
	cpu, _ := lab.MetricByName("cpu")
	var out []Scenario
	for _, sc := range scenarios {
		ms := Scenario{Name: sc}
		for _, v := range variants {
			row := Row{Variant: v}
			for _, h := range m.Hosts {
				c := Cell{Host: h.Label, Rate: math.NaN(), P99: math.NaN(), CPU: math.NaN()}
				if h.Run != nil {
					trials := stats.TrialsOf(h.Run, v, sc)
					c.Trials = len(trials)
					c.Rate, c.P99, c.CPU = medianOf(trials, rate), medianOf(trials, p99), medianOf(trials, cpu)
				}
				row.Cells = append(row.Cells, c)
			}
			for i := range row.Cells {
				c := &row.Cells[i]
				c.RateRatio, c.P99Ratio, c.CPURatio = math.NaN(), math.NaN(), math.NaN()
				if ref >= 0 {
					r := row.Cells[ref]
					c.RateRatio, c.P99Ratio, c.CPURatio = ratio(c.Rate, r.Rate), ratio(c.P99, r.P99), ratio(c.CPU, r.CPU)
				}
				if vs := m.Hosts[i].Versus; vs != nil {
					found := map[string]*Test{}
					for _, r := range vs.For(sc, v+" ("+m.Hosts[i].Label+")") {
						if r.Baseline.N > 0 && r.Variant.N > 0 {
							found[r.Metric.Name] = &Test{P: r.P, Significant: r.Significant}
						}
					}
					c.RateTest, c.P99Test, c.CPUTest = found[rate.Name], found[p99.Name], found[cpu.Name]
				}
			}
			ms.Rows = append(ms.Rows, row)
		}
		out = append(out, ms)
	}
	return out
}

// Compare compares every host that has a run with the reference host, as
// `lab compare` compares two runs (stats.CompareRuns: the Mann-Whitney U
// test, the runs' alpha), and keeps each comparison in the host's Versus:
// computed once, when the hosts have run or the matrix is loaded, and read
// by every format and by the session's hosts-*-vs-*.md.
func (m *Matrix) Compare() {
	ref := m.Reference()
	for i := range m.Hosts {
		h := &m.Hosts[i]
		h.Versus = nil
		if ref >= 0 && i != ref && h.Run != nil {
			r := m.Hosts[ref]
			h.Versus = stats.CompareRuns(r.Run, h.Run, r.Label, h.Label, 0)
		}
	}
}

// medianOf is the median of a metric over the trials that have it (NaN if none).
func medianOf(trials []lab.Trial, m lab.Metric) float64 {
	vals := report.ValuesOf(trials, m)
	if len(vals) == 0 {
		return math.NaN()
	}
	return stats.Median(vals)
}

func ratio(a, b float64) float64 {
	if math.IsNaN(a) || math.IsNaN(b) || b == 0 {
		return math.NaN()
	}
	return a / b
}

// ratioStr is "×0.92", "–" when unknown.
func ratioStr(r float64) string {
	if math.IsNaN(r) {
		return "–"
	}
	return fmt.Sprintf("×%.2f", r)
}

// ratioTest is the ratio with its test: "×0.92" when the difference is
// significant or untested, "×0.98 ~" when it is not significant.
func ratioTest(r float64, t *Test) string {
	if t != nil && !t.Significant && !math.IsNaN(r) {
		return ratioStr(r) + " ~"
	}
	return ratioStr(r)
}

// valueStr is num, "–" when unknown.
func valueStr(v float64) string {
	if math.IsNaN(v) {
		return "–"
	}
	return format.Num(v, 3)
}

// scheduleLine says how the hosts ran, for every format.
func (m *Matrix) scheduleLine() string {
	how := "one after another"
	if m.Concurrent {
		how = "at the same time"
	}
	if m.Schedule == "" {
		return "The hosts ran " + how + "."
	}
	return "The hosts ran " + how + ": " + m.Schedule + "."
}

// referenceLine names the reference host of the ratios.
func (m *Matrix) referenceLine() string {
	ref := m.Reference()
	if ref < 0 {
		return "No host measured any trial."
	}
	return "Ratios (×) are against " + m.Hosts[ref].Label + ", the first host with measured trials; CPU is server + database per request. " +
		fmt.Sprintf("~ after a ratio: not significant (Mann-Whitney U test against %s, unpaired, alpha %g, as lab compare).",
			m.Hosts[ref].Label, stats.AlphaFor(m.Hosts[ref].Run, 0))
}

// hostState is "ok", "failed: why" or "partial: why".
func hostState(h Host) string {
	switch {
	case h.Error == "":
		return "ok"
	case h.Run != nil && okTrials(h.Run) > 0:
		return "partial: " + h.Error
	}
	return "failed: " + h.Error
}
