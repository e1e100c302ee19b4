package stats

import (
	"fmt"
	"math"

	"golang.org/x/perf/benchmath"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// DefaultAlpha is the significance level used when neither the caller nor
// the experiment gives one.
const DefaultAlpha = 0.05

// Outcome is what a row says about the variant, from the reader's side.
type Outcome string

// Outcomes.
const (
	Same    Outcome = "~"       // no significant difference
	Better  Outcome = "better"  // significant, in the metric's good direction
	Worse   Outcome = "worse"   // significant, in the metric's bad direction
	Changed Outcome = "changed" // significant, for a metric with no direction
)

// Verdicts are all comparisons of a run (or of two runs).
type Verdicts struct {
	Alpha      float64
	Confidence float64
	// Baseline is the baseline variant's name (Compare) or label (CompareRuns).
	Baseline string
	// Scenarios and Variants list the compared names in report order;
	// Variants excludes the baseline.
	Scenarios []string
	Variants  []string
	Rows      []Row
}

// Row compares one metric of one variant against the baseline in one
// scenario.
type Row struct {
	Scenario     string
	Metric       lab.Metric
	BaselineName string
	VariantName  string
	Baseline     Summary
	Variant      Summary
	// DeltaPct is the change of the median in percent (variant vs
	// baseline); ±Inf when the baseline median is 0, NaN when unknown.
	DeltaPct    float64
	P           float64
	Alpha       float64
	Significant bool
	Outcome     Outcome
	Warnings    []string
}

// Delta formats the change like benchstat: "~" when not significant,
// otherwise a signed percentage.
func (r Row) Delta() string {
	switch {
	case r.Baseline.N == 0 || r.Variant.N == 0:
		return "?"
	case !r.Significant:
		return "~"
	case math.IsNaN(r.DeltaPct):
		return "?"
	case math.IsInf(r.DeltaPct, 0):
		return "new"
	}
	return fmt.Sprintf("%+.2f%%", r.DeltaPct)
}

// PString formats the p-value and sample sizes like benchstat
// ("p=0.002 n=10", "p=0.310 n=5+6").
func (r Row) PString() string {
	s := fmt.Sprintf("p=%.3f ", r.P)
	if r.Baseline.N == r.Variant.N {
		return s + fmt.Sprintf("n=%d", r.Baseline.N)
	}
	return s + fmt.Sprintf("n=%d+%d", r.Baseline.N, r.Variant.N)
}

// DiffCI is a conservative confidence interval of the change in percent,
// from the two medians' intervals: [variant.Lo/baseline.Hi-1,
// variant.Hi/baseline.Lo-1]. ok is false when an interval is unbounded or
// the baseline's lower bound is not positive.
func (r Row) DiffCI() (lo, hi float64, ok bool) {
	b, v := r.Baseline, r.Variant
	if !b.Bounded() || !v.Bounded() || b.Lo <= 0 || b.Hi <= 0 {
		return math.Inf(-1), math.Inf(1), false
	}
	return 100 * (v.Lo/b.Hi - 1), 100 * (v.Hi/b.Lo - 1), true
}

// For returns the rows of one scenario and variant, in metric order.
func (v *Verdicts) For(scenario, variant string) []Row {
	var out []Row
	for _, r := range v.Rows {
		if r.Scenario == scenario && r.VariantName == variant {
			out = append(out, r)
		}
	}
	return out
}

// Headlines returns the rows of the primary metric (throughput), one per
// scenario and variant: the verdicts to show first.
func (v *Verdicts) Headlines() []Row {
	var out []Row
	for _, r := range v.Rows {
		if r.Metric.Name == lab.Metrics[0].Name {
			out = append(out, r)
		}
	}
	return out
}

// group is the trials of one variant in one scenario, with the events that
// concern them.
type group struct {
	name   string
	trials []lab.Trial
	events []lab.Event
}

// compareGroups builds the rows of every metric for one pair of groups.
func compareGroups(scenario string, base, vari group, alpha float64) []Row {
	common := append(groupWarnings(base), groupWarnings(vari)...)
	var rows []Row
	for _, m := range lab.Metrics {
		bv, vv := valuesOf(base.trials, m), valuesOf(vari.trials, m)
		if len(bv) == 0 && len(vv) == 0 && m.Name != lab.Metrics[0].Name {
			// Not measured in this run (e.g. no telemetry). The primary
			// metric always has a row, to carry the warnings.
			continue
		}
		rows = append(rows, compareMetric(scenario, m, base.name, bv, vari.name, vv, alpha, common))
	}
	return rows
}

// compareMetric compares one metric's values of baseline and variant.
func compareMetric(scenario string, m lab.Metric, bname string, bv []float64, vname string, vv []float64, alpha float64, common []string) Row {
	r := Row{Scenario: scenario, Metric: m, BaselineName: bname, VariantName: vname, Alpha: alpha, P: 1, Outcome: Same, DeltaPct: math.NaN()}
	var ws []string
	var w []string
	r.Baseline, w = Summarize(bv)
	ws = append(ws, prefix(bname, w)...)
	r.Variant, w = Summarize(vv)
	ws = append(ws, prefix(vname, w)...)
	if r.Baseline.N > 0 && r.Variant.N > 0 {
		r.DeltaPct = deltaPct(r.Baseline.Median, r.Variant.Median)
		if allEqual(r.Baseline.Values, r.Variant.Values) {
			r.P = 1
		} else {
			th := benchmath.Thresholds{CompareAlpha: alpha}
			c := benchmath.AssumeNothing.Compare(benchmath.NewSample(append([]float64(nil), bv...), &th),
				benchmath.NewSample(append([]float64(nil), vv...), &th))
			r.P = c.P
			ws = append(ws, errStrings(c.Warnings)...)
		}
		r.Significant = r.P <= alpha
		r.Outcome = outcome(r, m)
	}
	for _, s := range []struct {
		name string
		sum  Summary
	}{{bname, r.Baseline}, {vname, r.Variant}} {
		if sp := s.sum.SpreadPct(); s.sum.Bounded() && sp > 100*NoiseLimit {
			ws = append(ws, fmt.Sprintf("%s: %s is noisy (CI ±%.0f%% of the median, limit ±%.0f%%)", s.name, m.Label, sp, 100*NoiseLimit))
		}
	}
	r.Warnings = dedupe(append(ws, common...))
	return r
}

func outcome(r Row, m lab.Metric) Outcome {
	if !r.Significant {
		return Same
	}
	d := r.Variant.Median - r.Baseline.Median
	switch {
	case d == 0 || m.Better == 0:
		return Changed
	case (d > 0) == (m.Better > 0):
		return Better
	default:
		return Worse
	}
}

func deltaPct(base, v float64) float64 {
	switch {
	case base == v:
		return 0
	case base == 0:
		return math.Copysign(math.Inf(1), v)
	}
	return 100 * (v/base - 1)
}

func allEqual(a, b []float64) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	x := a[0]
	for _, s := range [][]float64{a, b} {
		for _, v := range s {
			if v != x {
				return false
			}
		}
	}
	return true
}

func prefix(name string, ws []string) []string {
	var out []string
	for _, w := range ws {
		out = append(out, name+": "+w)
	}
	return out
}

func dedupe(ws []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, w := range ws {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}
