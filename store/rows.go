package store

import (
	"encoding/json"
	"math"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// The rows Put copies into each table, column by column as the lists say.

var variantCols = []string{"run_id", "ord", "name", "baseline", "description", "binary_path", "version",
	"postgrest_version", "commit", "repo", "ref", "changes"}

func variantRows(id string, run *lab.Run) [][]any {
	var rows [][]any
	base := stats.BaselineName(run)
	seen := map[string]bool{}
	for i, v := range run.Variants {
		if seen[v.Name] {
			continue
		}
		seen[v.Name] = true
		changes, _ := json.Marshal(changesOf(v.Changes))
		b := v.Build
		rows = append(rows, []any{id, i + 1, v.Name, v.Name == base, v.Description, v.Binary, v.Version,
			b.Version, b.Commit, b.Repo, b.Ref, string(changes)})
	}
	return rows
}

type change struct {
	Where string `json:"where"`
	Key   string `json:"key"`
	From  string `json:"from"`
	To    string `json:"to"`
}

func changesOf(cs []lab.Change) []change {
	out := []change{}
	for _, c := range cs {
		out = append(out, change(c))
	}
	return out
}

var trialCols = []string{"run_id", "seq", "variant", "scenario", "rep", "started", "ended", "error", "model",
	"requests", "errors", "dropped", "seconds", "rate", "p50_ms", "p99_ms", "server_cpu_us", "db_cpu_us", "speed_ref_ns"}

func trialRows(id string, run *lab.Run) [][]any {
	var rows [][]any
	for _, t := range run.Trials {
		l := t.Load
		rows = append(rows, []any{id, t.Seq, t.Variant, t.Scenario, t.Rep, t.Start, t.End, t.Error, string(l.Model),
			l.Requests, l.Errors, l.Dropped, finite(l.Seconds), finite(l.Rate), finite(l.LatencyMs.P50), finite(l.LatencyMs.P99),
			finite(t.Server.CPUPerRequestUs), finite(t.Database.CPUPerRequestUs), finite(t.SpeedRefNs)})
	}
	return rows
}

var trialMetricCols = []string{"run_id", "seq", "metric", "value"}

// trialMetricRows are every metric of lab.Metrics known for each trial
// (failed trials too: trials.error says which to leave out).
func trialMetricRows(id string, run *lab.Run) [][]any {
	var rows [][]any
	for _, t := range run.Trials {
		for _, m := range lab.Metrics {
			if v, ok := m.Of(t); ok && isFinite(v) {
				rows = append(rows, []any{id, t.Seq, m.Name, v})
			}
		}
	}
	return rows
}

var summaryCols = []string{"run_id", "variant", "scenario", "metric", "unit", "n", "median", "ci_low", "ci_high"}

// summaryRows are the median and interval of every metric measured, per
// variant and scenario, over the valid trials (as the reports summarise).
func summaryRows(id string, run *lab.Run) [][]any {
	var rows [][]any
	for _, v := range stats.VariantNames(run) {
		for _, sc := range stats.ScenarioNames(run) {
			trials := stats.TrialsOf(run, v, sc)
			for _, m := range lab.Metrics {
				vals := valuesOf(trials, m)
				if len(vals) == 0 {
					continue
				}
				s, _ := stats.Summarize(vals)
				lo, hi := nullable(s.Lo), nullable(s.Hi)
				if !s.Bounded() {
					lo, hi = nil, nil
				}
				rows = append(rows, []any{id, v, sc, m.Name, m.Unit, s.N, s.Median, lo, hi})
			}
		}
	}
	return rows
}

// valuesOf is a metric over the valid trials (no Error), known and finite:
// the values stats summarises.
func valuesOf(trials []lab.Trial, m lab.Metric) []float64 {
	var vs []float64
	for _, t := range trials {
		if t.Error != "" {
			continue
		}
		if v, ok := m.Of(t); ok && isFinite(v) {
			vs = append(vs, v)
		}
	}
	return vs
}

var verdictCols = []string{"run_id", "variant", "baseline", "scenario", "metric", "primary_metric", "change_pct",
	"ci_low_pct", "ci_high_pct", "p", "p_unpaired", "test", "alpha", "threshold", "mde_pct", "significant", "decision",
	"baseline_n", "variant_n", "warnings"}

func verdictRows(id string, v *stats.Verdicts) [][]any {
	var rows [][]any
	seen := map[[3]string]bool{}
	for _, r := range v.Rows {
		key := [3]string{r.VariantName, r.Scenario, r.Metric.Name}
		if seen[key] {
			continue
		}
		seen[key] = true
		var lo, hi any
		if l, h, ok := r.DiffCI(); ok {
			lo, hi = nullable(l), nullable(h)
		}
		warnings := r.Warnings
		if warnings == nil {
			warnings = []string{}
		}
		rows = append(rows, []any{id, r.VariantName, r.BaselineName, r.Scenario, r.Metric.Name, r.Metric.Name == v.Primary.Name,
			nullable(r.DeltaPct), lo, hi, finite(r.P), finite(r.PUnpaired), r.Test, r.Alpha, finite(r.Threshold),
			nullable(r.MDEPct), r.Significant, string(r.Outcome), r.Baseline.N, r.Variant.N, warnings})
	}
	return rows
}

func isFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// nullable is x, or NULL when x is NaN or infinite.
func nullable(x float64) any {
	if !isFinite(x) {
		return nil
	}
	return x
}

// finite is x, or 0 when x is NaN or infinite (for NOT NULL columns of
// raw figures, where a non-finite value means none was measured).
func finite(x float64) float64 {
	if !isFinite(x) {
		return 0
	}
	return x
}
