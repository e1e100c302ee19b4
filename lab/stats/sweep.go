package stats

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/internal/cpulist"
	"github.com/pgrst-lab/pgrst-lab/lab"
)

// SweepMetrics are the metrics a sweep's report draws against the swept
// value, in order: throughput (with the search model, the highest rate
// meeting the limit), p99 latency, server + database CPU per request, RSS.
var SweepMetrics = []string{"rate", "p99", "cpu", "peak_rss"}

// SweepResult is a sweep's analysis: per scenario, every value's medians
// with their confidence intervals, and a recommendation.
type SweepResult struct {
	// Keys are the swept keys (one, or two for a grid); Geometric says
	// whether the first key's values are best drawn on a log axis.
	Keys      []string
	Geometric bool
	// Baseline is the baseline variant; Order the cost order.
	Baseline string
	Order    lab.Cheapest
	// Metrics are the metrics drawn and tabled against the swept value:
	// SweepMetrics, the headline when it is none of them, and errors when
	// some value failed requests.
	Metrics   []string
	Scenarios []SweepScenario
}

// SweepScenario is one scenario of a sweep.
type SweepScenario struct {
	Scenario string
	// Points are the values, cheapest first.
	Points         []SweepPointResult
	Recommendation Recommendation
	// Pool is the pool sizing of a db-pool sweep over a targets file (nil
	// otherwise): see PoolSizingOf.
	Pool *PoolSizing
}

// SweepPointResult is one value (one variant) of a sweep in one scenario.
type SweepPointResult struct {
	Variant string
	Values  []string
	// Metrics are the medians with their confidence intervals, by metric
	// name (SweepResult.Metrics and errors, those that were measured).
	Metrics map[string]Summary
	// Trials are the value's trials, Failed those that failed (an OOM
	// kill, a crash, not ready; not those left out for interference): a
	// value with any is never recommended nor the best, however good its
	// surviving trials.
	Trials, Failed int
}

// Recommendation is the answer to "which value should I use": the best
// value on the primary metric and the cheapest value statistically
// indistinguishable from it, with the tests that say so.
type Recommendation struct {
	Metric string
	// Best is the variant with the best median; Cheapest the cheapest
	// variant the test cannot tell from it ("" when CannotTell).
	Best     string
	Cheapest string
	// VsBest tests Cheapest against Best (nil when they are the same).
	VsBest *Row
	// Below tests the next cheaper value against Best (nil when Cheapest
	// is the cheapest value swept).
	Below *Row
	// CannotTell is set when no value differs from the best beyond the
	// noise: the run cannot say that any value matters.
	CannotTell bool
	Sentence   string
}

// Sweep analyses run's sweep (nil without one) at alpha (<= 0: the
// experiment's), with the same tests as Compare.
func Sweep(run *lab.Run, alpha float64) *SweepResult {
	s := run.Experiment.Sweep
	if s == nil {
		return nil
	}
	alpha = AlphaFor(run, alpha)
	primary := lab.PrimaryMetric(&run.Experiment)
	lk := look{design: DesignOf(run, alpha), rounds: Rounds(run), analysis: run.Experiment.Trials.Analysis, pairable: true, primary: primary.Name}
	res := &SweepResult{Geometric: s.Geometric(), Baseline: BaselineName(run), Order: s.CostOrder()}
	axes := s.Axes()
	for _, a := range axes {
		res.Keys = append(res.Keys, a.Key)
	}
	// The table's metrics (the headline among them); errors is always
	// summarised, for Recommend, and tabled when some value failed.
	res.Metrics = SweepMetrics
	if !slices.Contains(res.Metrics, primary.Name) {
		res.Metrics = append(slices.Clone(res.Metrics), primary.Name)
	}
	names := res.Metrics
	if !slices.Contains(names, "errors") {
		names = append(slices.Clone(names), "errors")
	}
	failed := false
	for _, sc := range ScenarioNames(run) {
		ss := SweepScenario{Scenario: sc}
		for _, p := range s.Points() {
			trials := TrialsOf(run, p.Variant, sc)
			if len(trials) == 0 {
				continue
			}
			pr := SweepPointResult{Variant: p.Variant, Values: p.Values, Metrics: map[string]Summary{}, Trials: len(trials)}
			for _, t := range trials {
				if t.Failed() {
					pr.Failed++
				}
			}
			for _, name := range names {
				m, _ := lab.MetricByName(name)
				if vs := valuesOf(trials, m); len(vs) > 0 {
					pr.Metrics[name], _ = Summarize(vs)
				}
			}
			failed = failed || pr.Metrics["errors"].Median > 0
			ss.Points = append(ss.Points, pr)
		}
		compare := func(best, other string) Row {
			for _, r := range compareGroups(sc, groupOf(run, best, sc), groupOf(run, other, sc), lk) {
				if r.Metric.Name == primary.Name {
					return r
				}
			}
			return Row{} // not reached: the primary metric always has a row
		}
		ss.Recommendation = Recommend(ss.Points, primary, axes, res.Baseline, compare)
		if m := Monotonic(run, ss.Points); m != "" {
			ss.Recommendation.Sentence = strings.TrimSpace(ss.Recommendation.Sentence + " " + m + PerCore(run, ss.Points))
		}
		ss.Pool = PoolSizingOf(run, sc, ss.Points)
		res.Scenarios = append(res.Scenarios, ss)
	}
	if failed {
		res.Metrics = names
	}
	return res
}

// leftOut names the failing points Recommend left out, with the share of
// requests each failed: "; left out, for failed requests: 2 (33 %), 4
// (12 %)"; "" when none.
func leftOut(points []SweepPointResult, fails map[int]bool) string {
	var requests, trials []string
	for i, p := range points {
		switch {
		case fails[i] && p.Failed > 0:
			trials = append(trials, fmt.Sprintf("%s (%d of %d)", pointLabel(p.Values), p.Failed, p.Trials))
		case fails[i]:
			requests = append(requests, fmt.Sprintf("%s (%s)", pointLabel(p.Values), pct(p.Metrics["errors"].Median)))
		}
	}
	s := ""
	if len(requests) > 0 {
		s += "; left out, for failed requests: " + strings.Join(requests, ", ")
	}
	if len(trials) > 0 {
		s += "; left out, for failed trials: " + strings.Join(trials, ", ")
	}
	return s
}

// FailedMarginPct is how many more of its requests (in percentage points
// of the errors metric) a swept value may fail than the value that failed
// fewest before Recommend leaves it out.
const FailedMarginPct = 0.1

// failing returns the points with a failed trial (Failed), and those that
// failed more requests than the one that failed fewest, by more than
// FailedMarginPct: their latency and CPU are the trials and answers that
// worked, so they cannot be recommended on them (a memory limit that
// killed 5 trials of 6 is not the best for its one survivor).
func failing(points []SweepPointResult) map[int]bool {
	least := math.Inf(1)
	for _, p := range points {
		if e, ok := p.Metrics["errors"]; ok {
			least = min(least, e.Median)
		}
	}
	out := map[int]bool{}
	for i, p := range points {
		if e, ok := p.Metrics["errors"]; p.Failed > 0 || ok && e.Median > least+FailedMarginPct {
			out[i] = true
		}
	}
	return out
}

// Recommend picks, among points (cheapest first), the best on metric m and
// the cheapest one compare (a test of other against best on m) cannot tell
// from it (see Differs). When no value differs from the baseline variant,
// it says it cannot tell and recommends nothing.
func Recommend(points []SweepPointResult, m lab.Metric, axes []lab.SweepAxis, baseline string, compare func(best, other string) Row) Recommendation {
	rec := Recommendation{Metric: m.Name}
	fails := failing(points)
	best := -1
	for i, p := range points {
		s, ok := p.Metrics[m.Name]
		if !ok || math.IsNaN(s.Median) || fails[i] {
			continue
		}
		if best < 0 || better(m, s.Median, points[best].Metrics[m.Name].Median) {
			best = i
		}
	}
	if best < 0 {
		rec.CannotTell = true
		rec.Sentence = fmt.Sprintf("cannot tell: no %s was measured", m.Label)
		return rec
	}
	rec.Best = points[best].Variant
	bestLabel := pointLabel(points[best].Values)
	rows := make([]*Row, len(points))
	cheapest := -1
	for i, p := range points {
		if _, ok := p.Metrics[m.Name]; !ok || fails[i] {
			continue
		}
		if i != best {
			r := compare(rec.Best, p.Variant)
			rows[i] = &r
			if Differs(r) {
				continue
			}
		}
		if cheapest < 0 {
			cheapest = i
		}
	}
	// Whether anything differs at all is asked of the verdicts' own tests,
	// each value against the baseline: against the best (picked for its
	// median) noise alone would often seem to differ.
	differs := false
	var vsBase []*Row
	var weak *Row // significant against the baseline, but below the MDE
	for i, p := range points {
		if _, ok := p.Metrics[m.Name]; ok && p.Variant != baseline && !fails[i] {
			r := compare(baseline, p.Variant)
			vsBase = append(vsBase, &r)
			differs = differs || Differs(r)
			if r.Significant && (weak == nil || math.Abs(r.DeltaPct) > math.Abs(weak.DeltaPct)) {
				weak = &r
			}
		}
	}
	if !differs {
		rec.CannotTell = true
		var b strings.Builder
		fmt.Fprintf(&b, "cannot tell: no %s value differs from the baseline (%s) on %s beyond the noise%s",
			axisNames(axes), pointLabel(pointValues(points, baseline)), m.Label, mdeClause(vsBase))
		if weak != nil {
			fmt.Fprintf(&b, "; %s %s changed it %+.0f %% (p = %.2g), less than the %s this run could detect",
				axisNames(axes), pointLabel(pointValues(points, weak.VariantName)), weak.DeltaPct, weak.P, weak.MDEString())
		}
		b.WriteString("; keep what you have, or measure more rounds")
		b.WriteString(leftOut(points, fails))
		rec.Sentence = b.String()
		return rec
	}
	rec.Cheapest = points[cheapest].Variant
	rec.VsBest = rows[cheapest]
	label := pointLabel(points[cheapest].Values)
	var b strings.Builder
	if cheapest == best {
		fmt.Fprintf(&b, "%s %s is the best on %s", axisNames(axes), label, m.Label)
	} else {
		r := rec.VsBest
		fmt.Fprintf(&b, "%s %s is within %s of the best (%s) at p = %.2g", axisNames(axes), label, pct(math.Abs(r.DeltaPct)), bestLabel, r.P)
		if !math.IsInf(r.MDEPct, 0) {
			fmt.Fprintf(&b, " (the run could detect %s)", r.MDEString())
		}
	}
	if below := previousMeasured(points, cheapest, m); below >= 0 && points[below].Failed > 0 {
		fmt.Fprintf(&b, "; below %s (at %s) %d of %d trials failed", label, pointLabel(points[below].Values), points[below].Failed, points[below].Trials)
	} else if below >= 0 && fails[below] {
		fmt.Fprintf(&b, "; below %s (at %s) %s of the requests failed", label, pointLabel(points[below].Values), pct(points[below].Metrics["errors"].Median))
	} else if below >= 0 && rows[below] != nil {
		r := rows[below]
		rec.Below = r
		verb := "drops"
		if r.DeltaPct > 0 {
			verb = "rises"
		}
		fmt.Fprintf(&b, "; below %s (at %s) %s %s %s (p = %.2g)", label, pointLabel(points[below].Values), m.Label, verb, pct(math.Abs(r.DeltaPct)), r.P)
	} else {
		b.WriteString("; it is the cheapest value swept")
	}
	b.WriteString(leftOut(points, fails))
	rec.Sentence = b.String()
	return rec
}

// Differs reports whether a sweep's value differs from the best: the
// test is significant and the change is at least the minimum detectable
// effect. The second condition keeps the many comparisons of a sweep (each
// value against the best, the best picked for its median) from finding
// differences in noise alone: a chance significance rarely reaches the MDE,
// while a change that matters for tuning does.
func Differs(r Row) bool {
	return r.Significant && !math.IsNaN(r.DeltaPct) && math.Abs(r.DeltaPct) >= r.MDEPct
}

// better reports whether a is better than b on m (neutral metrics count
// higher as better).
func better(m lab.Metric, a, b float64) bool {
	if m.Better < 0 {
		return a < b
	}
	return a > b
}

// pointValues returns the values of the point of variant name.
func pointValues(points []SweepPointResult, name string) []string {
	for _, p := range points {
		if p.Variant == name {
			return p.Values
		}
	}
	return []string{name}
}

// previousMeasured is the index of the measured point just cheaper than i.
func previousMeasured(points []SweepPointResult, i int, m lab.Metric) int {
	for j := i - 1; j >= 0; j-- {
		if _, ok := points[j].Metrics[m.Name]; ok {
			return j
		}
	}
	return -1
}

// mdeClause says the largest change the comparisons could have missed.
func mdeClause(rows []*Row) string {
	worst := math.Inf(-1)
	for _, r := range rows {
		if r != nil && !math.IsNaN(r.MDEPct) {
			worst = math.Max(worst, r.MDEPct)
		}
	}
	if math.IsInf(worst, 0) {
		return ""
	}
	return fmt.Sprintf(" (changes under ±%.1f%% could not be detected)", worst)
}

func pct(x float64) string {
	if x < 10 {
		return fmt.Sprintf("%.1f %%", x)
	}
	return fmt.Sprintf("%.0f %%", x)
}

// axisNames names the swept keys: "db-pool", "db-pool/work_mem".
func axisNames(axes []lab.SweepAxis) string {
	var names []string
	for _, a := range axes {
		names = append(names, a.Label())
	}
	return strings.Join(names, "/")
}

// pointLabel writes a point's values: "5", "5/4MB"; no value is "default".
func pointLabel(vals []string) string {
	out := make([]string, len(vals))
	for i, v := range vals {
		if strings.TrimSpace(v) == "" {
			v = "default"
		}
		out[i] = v
	}
	return strings.Join(out, "/")
}

// scalingKeys are the sweep keys that give the target more CPU, value by
// value: a capacity should rise with them.
var scalingKeys = []string{"dropin.CPUQuota", "dropin.AllowedCPUs", "dropin.CPUAffinity"}

// Monotonic says whether a capacity sweep over CPU (scalingKeys, the
// search model) rises with every value, cheapest first: "" for other
// sweeps; else a sentence that the rate rises at every step, or where it
// does not and by how much (a step that adds CPU the server cannot use,
// such as a quota above the cores it may run on, adds nothing).
func Monotonic(run *lab.Run, points []SweepPointResult) string {
	s := run.Experiment.Sweep
	if s == nil || !run.Experiment.Load.Model.SearchesEachTrial() || !slices.Contains(scalingKeys, s.Key) || s.Cross != nil {
		return ""
	}
	var falls []string
	prev := -1
	for i, p := range points {
		r, ok := p.Metrics["rate"]
		if !ok || r.N == 0 {
			continue
		}
		if prev >= 0 {
			before := points[prev].Metrics["rate"].Median
			if r.Median <= before {
				falls = append(falls, fmt.Sprintf("%s to %s: %s → %s req/s", pointLabel(points[prev].Values), pointLabel(p.Values),
					fmtNum(before), fmtNum(r.Median)))
			}
		}
		prev = i
	}
	if prev < 0 {
		return ""
	}
	if len(falls) == 0 {
		return fmt.Sprintf("The rate rises with every step of %s.", s.Key)
	}
	return fmt.Sprintf("The rate does not rise with every step of %s (%s): past a step, the server cannot use what the next adds (its cores, or PostgreSQL's), or the difference is within the noise.",
		s.Key, strings.Join(falls, "; "))
}

func fmtNum(v float64) string { return fmt.Sprintf("%.0f", v) }

// PerCore says a CPU sweep's rate per core the target was given, value by
// value (" Per core: 25% 1210, 50% 1190, 100% 1105 req/s."): how well
// each step's CPU is used; "" when no value gives a known number of cores.
func PerCore(run *lab.Run, points []SweepPointResult) string {
	var parts []string
	for _, p := range points {
		r, ok := p.Metrics["rate"]
		if len(p.Values) == 0 || !ok || r.N == 0 {
			continue
		}
		if cores := CoresOf(run.Experiment.Sweep.Key, p.Values[0]); cores > 0 {
			parts = append(parts, pointLabel(p.Values)+" "+fmtNum(r.Median/cores))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " Per core: " + strings.Join(parts, ", ") + " req/s."
}

// CoresOf is the CPU a scaling key's value gives the target, in cores: a
// CPUQuota= of 50% is half a core, a CPU list (AllowedCPUs=,
// CPUAffinity=) its CPUs; 0 when it cannot tell.
func CoresOf(key, value string) float64 {
	switch key {
	case "dropin.CPUQuota":
		pct, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(value), "%"), 64)
		if err != nil || !(pct > 0) {
			return 0
		}
		return pct / 100
	case "dropin.AllowedCPUs", "dropin.CPUAffinity":
		cpus, err := cpulist.Parse(value)
		if err != nil {
			return 0
		}
		return float64(len(cpus))
	}
	return 0
}
