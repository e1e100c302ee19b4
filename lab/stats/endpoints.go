package stats

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// Endpoint is one line of a targets file (one request with one answer
// status, lab.EndpointStats) of one variant against the baseline, in one
// scenario: its P50 tested per line, paired across rounds like the run's
// other verdicts, with Holm-Bonferroni across the lines of the comparison.
type Endpoint struct {
	Scenario    string
	Name        string // "STATUS METHOD PATH"
	Line        int
	VariantName string
	// Row is the P50's verdict; its P is the test's, HolmP the
	// Holm-adjusted one that Significant and Outcome follow, and its
	// MDEPct is at the Holm's first step (Threshold / lines tested), the
	// bound every line is sure to meet.
	Row   Row
	HolmP float64
	// Base and Var are the medians over each variant's trials (Requests:
	// per trial); Share* the line's median share of a trial's requests,
	// in percent.
	Base, Var           lab.EndpointStats
	BaseShare, VarShare float64
	// Tested is false for a line that only one variant answered (e.g. a
	// status only the variant gives): shown, not tested.
	Tested bool
}

// Changed reports whether the line's P50 changed significantly.
func (e Endpoint) Changed() bool { return e.Tested && e.Row.Significant }

// EndpointsMethod is the sentence a table of Endpoint rows carries.
const EndpointsMethod = "each line's P50 tested per line, paired across rounds; Holm-Bonferroni across the lines of a comparison " +
	"(family-wise error at alpha); MDE at the Holm's strictest step; a line only one variant answered is shown, not tested"

// endpoints compares every line of a scenario's targets file, in the
// order the baseline (then the variant) measured them.
func endpoints(scenario string, base, vari group, lk look) []Endpoint {
	names, lines := endpointNames(base.trials, vari.trials)
	if len(names) == 0 {
		return nil
	}
	var out []Endpoint
	for _, name := range names {
		m := endpointMetric(name)
		bv, vv := valuesOf(base.trials, m), valuesOf(vari.trials, m)
		e := Endpoint{Scenario: scenario, Name: name, Line: lines[name], VariantName: vari.name, HolmP: 1,
			Tested: len(bv) > 0 && len(vv) > 0}
		e.Base, e.BaseShare = endpointMedians(base.trials, name)
		e.Var, e.VarShare = endpointMedians(vari.trials, name)
		var lr []float64
		rounds := 0
		if lk.pairable {
			lr, rounds, _ = verdictPairs(base.trials, vari.trials, m, false, lk.design.Alpha)
		}
		e.Row = compareMetric(scenario, m, false, base.name, bv, vari.name, vv, lr, rounds, lk, nil)
		out = append(out, e)
	}
	holm(out)
	return out
}

// holm applies Holm-Bonferroni's step-down to the tested lines: the k-th
// smallest of m p-values is multiplied by m-k+1 (monotone, at most 1), and
// a line is significant when its adjusted p is at most its threshold.
func holm(es []Endpoint) {
	var idx []int
	for i, e := range es {
		if e.Tested && !math.IsNaN(e.Row.DeltaPct) {
			idx = append(idx, i)
		} else {
			es[i].Row.Significant, es[i].Row.Outcome = false, Same
		}
	}
	m := len(idx)
	sort.SliceStable(idx, func(a, b int) bool { return es[idx[a]].Row.P < es[idx[b]].Row.P })
	running := 0.0
	for k, i := range idx {
		r := &es[i].Row
		running = max(running, min(1, float64(m-k)*r.P))
		es[i].HolmP = running
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
		es[i] = Endpoint{Tested: true, Row: Row{P: p, Threshold: 1, Metric: lab.Metric{Better: -1}}}
	}
	holm(es)
	out := make([]float64, len(ps))
	for i, e := range es {
		out[i] = e.HolmP
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

// endpointMetric is a line's P50 as a metric (lower is better), known for
// the trials in which the line had answers with a latency.
func endpointMetric(name string) lab.Metric {
	return lab.Metric{Name: "endpoint_p50", Label: fmt.Sprintf("%s p50", name), Unit: "ms", Better: -1,
		Of: func(t lab.Trial) (float64, bool) {
			if t.Error != "" {
				return 0, false
			}
			e, ok := endpointOf(t, name)
			return e.P50Ms, ok && e.Requests > 0 && e.P50Ms > 0
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

// ChangedFirst orders lines for a reader: significant changes first, by
// the size of the change, then the others in file order.
func ChangedFirst(es []Endpoint) []Endpoint {
	out := slices.Clone(es)
	slices.SortStableFunc(out, func(a, b Endpoint) int {
		ca, cb := a.Changed(), b.Changed()
		switch {
		case ca && !cb:
			return -1
		case cb && !ca:
			return 1
		case ca && cb:
			da, db := math.Abs(a.Row.DeltaPct), math.Abs(b.Row.DeltaPct)
			if da > db {
				return -1
			}
			if da < db {
				return 1
			}
		}
		return 0
	})
	return out
}
