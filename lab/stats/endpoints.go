package stats

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// Endpoint is one line of a targets file (one request with one answer
// status, lab.EndpointStats) of one variant against the baseline, in one
// scenario: its P0, P50, P90, P95 and P99 (postgrest-loadtest-report's
// columns) each tested per line, paired across rounds like the run's
// other verdicts, with Holm-Bonferroni across the lines of the comparison
// for each quantile.
type Endpoint struct {
	Scenario    string
	Name        string // "STATUS METHOD PATH"
	Line        int
	VariantName string
	// Row is the P50's verdict (the headline, Quantiles[1]'s); its P is
	// the test's, HolmP the Holm-adjusted one that Significant and
	// Outcome follow, and its MDEPct is at the Holm's first step
	// (Threshold / lines tested), the bound every line is sure to meet.
	Row   Row
	HolmP float64
	// Quantiles are the verdicts of EndpointQuantiles, in that order,
	// each like Row (Holm across the lines, per quantile).
	Quantiles []QuantileVerdict
	// Base and Var are the medians over each variant's trials (Requests:
	// per trial); Share* the line's median share of a trial's requests,
	// in percent.
	Base, Var           lab.EndpointStats
	BaseShare, VarShare float64
	// Tested is false for a line that only one variant answered (e.g. a
	// status only the variant gives): shown, not tested.
	Tested bool
}

// QuantileVerdict is one latency quantile of a line: its verdict and
// Holm-adjusted p-value.
type QuantileVerdict struct {
	Name  string // "P0", "P50", ...
	Row   Row
	HolmP float64
}

// Changed reports whether the line's P50 changed significantly.
func (e Endpoint) Changed() bool { return e.Tested && e.Row.Significant }

// ChangedAny reports whether any of the line's quantiles changed
// significantly.
func (e Endpoint) ChangedAny() bool {
	for _, q := range e.Quantiles {
		if e.Tested && q.Row.Significant {
			return true
		}
	}
	return e.Changed()
}

// EndpointQuantiles are the quantiles tested per line, the columns of
// postgrest-loadtest-report (P0 is the fastest answer), in the order of
// lab.EndpointStats.Quantiles; P50 is the headline.
var EndpointQuantiles = []string{"P0", "P50", "P90", "P95", "P99"}

// EndpointMetricName is the metric name of a line's quantile q (one of
// EndpointQuantiles): endpoint_p0, endpoint_p50, ..., as gate rules name it.
func EndpointMetricName(q string) string { return "endpoint_" + strings.ToLower(q) }

// endpointHeadline is the index of P50 in EndpointQuantiles.
const endpointHeadline = 1

// EndpointsMethod is the sentence a table of Endpoint rows carries.
const EndpointsMethod = "each line's P0, P50, P90, P95 and P99 tested per line, paired across rounds; Holm-Bonferroni across the lines " +
	"of a comparison, per quantile (family-wise error at alpha for each column); MDE at the Holm's strictest step; " +
	"a line only one variant answered is shown, not tested"

// endpoints compares every line of a scenario's targets file, in the
// order the baseline (then the variant) measured them.
func endpoints(scenario string, base, vari group, lk look) []Endpoint {
	names, lines := endpointNames(base.trials, vari.trials)
	if len(names) == 0 {
		return nil
	}
	var out []Endpoint
	for _, name := range names {
		e := Endpoint{Scenario: scenario, Name: name, Line: lines[name], VariantName: vari.name}
		e.Base, e.BaseShare = endpointMedians(base.trials, name)
		e.Var, e.VarShare = endpointMedians(vari.trials, name)
		for qi, q := range EndpointQuantiles {
			m := endpointMetric(name, qi)
			bv, vv := valuesOf(base.trials, m), valuesOf(vari.trials, m)
			if qi == endpointHeadline {
				e.Tested = len(bv) > 0 && len(vv) > 0
			}
			var lr []float64
			rounds := 0
			if lk.pairable {
				lr, rounds, _ = verdictPairs(base.trials, vari.trials, m, false, lk.design.Alpha)
			}
			row := compareMetric(scenario, m, false, base.name, bv, vari.name, vv, lr, rounds, lk, nil)
			e.Quantiles = append(e.Quantiles, QuantileVerdict{Name: q, Row: row, HolmP: 1})
		}
		out = append(out, e)
	}
	for qi := range EndpointQuantiles {
		holm(out, qi)
	}
	for i := range out {
		out[i].Row, out[i].HolmP = out[i].Quantiles[endpointHeadline].Row, out[i].Quantiles[endpointHeadline].HolmP
	}
	return out
}

// holm applies Holm-Bonferroni's step-down to quantile qi of the tested
// lines: the k-th smallest of m p-values is multiplied by m-k+1 (monotone,
// at most 1), and a line is significant when its adjusted p is at most
// its threshold.
func holm(es []Endpoint, qi int) {
	var idx []int
	for i, e := range es {
		if e.Tested && !math.IsNaN(e.Quantiles[qi].Row.DeltaPct) {
			idx = append(idx, i)
		} else {
			es[i].Quantiles[qi].Row.Significant, es[i].Quantiles[qi].Row.Outcome = false, Same
		}
	}
	m := len(idx)
	sort.SliceStable(idx, func(a, b int) bool { return es[idx[a]].Quantiles[qi].Row.P < es[idx[b]].Quantiles[qi].Row.P })
	running := 0.0
	for k, i := range idx {
		q := &es[i].Quantiles[qi]
		r := &q.Row
		running = max(running, min(1, float64(m-k)*r.P))
		q.HolmP = running
		r.Significant = running <= r.Threshold
		r.Outcome = outcome(*r, r.Metric)
		strict := r.Threshold / float64(m)
		if r.Test == TestSignedRank && r.Paired != nil {
			r.MDEPct = MDEPct(r.Paired.SD, r.Paired.N, strict, true)
		} else {
			r.MDEPct = MDEPct(logSD(r.Baseline.Values, r.Variant.Values), min(r.Baseline.N, r.Variant.N), strict, false)
		}
	}
}

// HolmAdjust returns Holm-Bonferroni's adjusted p-values of ps, in ps'
// order.
func HolmAdjust(ps []float64) []float64 {
	es := make([]Endpoint, len(ps))
	for i, p := range ps {
		es[i] = Endpoint{Tested: true, Quantiles: []QuantileVerdict{{Row: Row{P: p, Threshold: 1, Metric: lab.Metric{Better: -1}}}}}
	}
	holm(es, 0)
	out := make([]float64, len(ps))
	for i, e := range es {
		out[i] = e.Quantiles[0].HolmP
	}
	return out
}

// endpointNames lists the lines the trials measured, in file order (by
// line, then status), with each name's line.
func endpointNames(groups ...[]lab.Trial) ([]string, map[string]int) {
	type key struct {
		line, status int
		name         string
	}
	seen := map[string]bool{}
	var keys []key
	lines := map[string]int{}
	for _, g := range groups {
		for _, t := range g {
			for _, e := range t.Load.Endpoints {
				if !seen[e.Name] {
					seen[e.Name] = true
					keys = append(keys, key{e.Line, e.Status, e.Name})
					lines[e.Name] = e.Line
				}
			}
		}
	}
	slices.SortStableFunc(keys, func(a, b key) int {
		if a.line != b.line {
			return a.line - b.line
		}
		return a.status - b.status
	})
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = k.name
	}
	return names, lines
}

func endpointOf(t lab.Trial, name string) (lab.EndpointStats, bool) {
	for _, e := range t.Load.Endpoints {
		if e.Name == name {
			return e, true
		}
	}
	return lab.EndpointStats{}, false
}

// endpointMetric is quantile qi (EndpointQuantiles) of a line as a metric
// (lower is better), known for the trials in which the line had answers
// with a latency. P50's name is endpoint_p50, the others' endpoint_p0, ...
func endpointMetric(name string, qi int) lab.Metric {
	q := EndpointQuantiles[qi]
	return lab.Metric{Name: EndpointMetricName(q), Label: fmt.Sprintf("%s %s", name, strings.ToLower(q)), Unit: "ms", Better: -1,
		Of: func(t lab.Trial) (float64, bool) {
			if t.Error != "" {
				return 0, false
			}
			e, ok := endpointOf(t, name)
			v := e.Quantiles()[qi]
			return v, ok && e.Requests > 0 && v > 0
		}}
}

// endpointMedians are the medians over trials of a line's figures and of
// its share of the trial's requests (percent).
func endpointMedians(trials []lab.Trial, name string) (lab.EndpointStats, float64) {
	var mins, p50s, p90s, p95s, p99s, maxs, reqs, errs, shares []float64
	out := lab.EndpointStats{Name: name}
	for _, t := range trials {
		e, ok := endpointOf(t, name)
		if !ok || t.Error != "" {
			continue
		}
		out.Method, out.Path, out.Status, out.Line = e.Method, e.Path, e.Status, e.Line
		mins, p50s, p90s = append(mins, e.MinMs), append(p50s, e.P50Ms), append(p90s, e.P90Ms)
		p95s, p99s, maxs = append(p95s, e.P95Ms), append(p99s, e.P99Ms), append(maxs, e.MaxMs)
		reqs, errs = append(reqs, float64(e.Requests)), append(errs, float64(e.Errors))
		if t.Load.Requests > 0 {
			shares = append(shares, 100*float64(e.Requests)/float64(t.Load.Requests))
		}
	}
	out.MinMs, out.P50Ms, out.P90Ms = Median(mins), Median(p50s), Median(p90s)
	out.P95Ms, out.P99Ms, out.MaxMs = Median(p95s), Median(p99s), Median(maxs)
	out.Requests, out.Errors = int64(math.Round(Median(reqs))), int64(math.Round(Median(errs)))
	return out, Median(shares)
}

// ChangedFirst orders lines for a reader: lines with a significant change
// first (the P50's, then any quantile's), by the size of the largest
// change, then the others in file order.
func ChangedFirst(es []Endpoint) []Endpoint {
	out := slices.Clone(es)
	rank := func(e Endpoint) int {
		switch {
		case e.Changed():
			return 0
		case e.ChangedAny():
			return 1
		}
		return 2
	}
	slices.SortStableFunc(out, func(a, b Endpoint) int {
		if ra, rb := rank(a), rank(b); ra != rb || ra == 2 {
			return ra - rb
		}
		da, db := a.largestChange(), b.largestChange()
		if da > db {
			return -1
		}
		if da < db {
			return 1
		}
		return 0
	})
	return out
}

// largestChange is the largest significant change of a line's quantiles,
// in percent (absolute).
func (e Endpoint) largestChange() float64 {
	big := 0.0
	if e.Changed() {
		big = math.Abs(e.Row.DeltaPct)
	}
	for _, q := range e.Quantiles {
		if q.Row.Significant {
			big = max(big, math.Abs(q.Row.DeltaPct))
		}
	}
	return big
}
