package gate

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/internal/didyoumean"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// Rule is one threshold: it fires when a significant change of Metric is
// below (Op '<') or above (Op '>') Pct percent.
type Rule struct {
	Metric lab.Metric
	Op     byte    // '<' or '>'
	Pct    float64 // signed threshold in percent, e.g. -3 or +10
	// Text is the rule as written, e.g. "throughput<-3%".
	Text string
}

// aliases are the names a rule may use besides the metrics' own names.
var aliases = map[string]string{"throughput": "rate"}

// Names lists the metric names a rule accepts, in report order.
func Names() []string {
	out := []string{"throughput"}
	for _, m := range lab.Metrics {
		if m.Name != "rate" && gateable(m) {
			out = append(out, m.Name)
		}
	}
	for _, m := range endpointMetrics() {
		out = append(out, m.Name)
	}
	return out
}

// endpointMetrics are the per-line quantiles of a targets file
// (stats.EndpointQuantiles) as rule metrics: endpoint_p50>+5% fires on
// every line whose P50 rose significantly by more than 5 %, PostgREST's
// own CI rule with a test behind it.
func endpointMetrics() []lab.Metric {
	var out []lab.Metric
	for _, q := range stats.EndpointQuantiles {
		out = append(out, lab.Metric{Name: stats.EndpointMetricName(q), Label: "each endpoint's " + q, Unit: "ms", Better: -1})
	}
	return out
}

// metricByName is a metric a rule may name.
func metricByName(name string) (lab.Metric, bool) {
	if m, ok := lab.MetricByName(name); ok && gateable(m) {
		return m, true
	}
	for _, m := range endpointMetrics() {
		if m.Name == name {
			return m, true
		}
	}
	return lab.Metric{}, false
}

// rows are the verdict rows rules look at: the run's and every tested
// line's quantiles.
func rows(v *stats.Verdicts) []stats.Row {
	out := slices.Clone(v.Rows)
	for _, e := range v.Endpoints {
		if !e.Tested {
			continue
		}
		for _, q := range e.Quantiles {
			out = append(out, q.Row)
		}
	}
	return out
}

// gateable leaves out the machine's speed reference: it checks the
// measurement, it is not something a PR changes.
func gateable(m lab.Metric) bool { return m.Name != lab.SpeedRefMetric }

// Parse reads a comma-separated list of rules, each METRIC<PCT% or
// METRIC>PCT% (e.g. "throughput<-3%,p99>+10%"). Every bad rule is
// reported, naming it and what is allowed.
func Parse(s string) ([]Rule, error) {
	if strings.TrimSpace(s) == "" {
		return nil, errors.New("--gate: empty; want rules like 'throughput<-3%,p99>+10%'")
	}
	var rules []Rule
	var errs []error
	for i, part := range strings.Split(s, ",") {
		r, err := parseRule(strings.TrimSpace(part))
		if err != nil {
			errs = append(errs, fmt.Errorf("--gate rule %d %q: %w", i+1, strings.TrimSpace(part), err))
			continue
		}
		rules = append(rules, r)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return rules, nil
}

func parseRule(s string) (Rule, error) {
	i := strings.IndexAny(s, "<>")
	if i < 0 {
		return Rule{}, errors.New("no comparison: want METRIC<PCT% or METRIC>PCT%, e.g. throughput<-3% or p99>+10%")
	}
	name, op, num := strings.TrimSpace(s[:i]), s[i], strings.TrimSpace(s[i+1:])
	if name == "" {
		return Rule{}, fmt.Errorf("no metric before %q (allowed: %s)", op, strings.Join(Names(), ", "))
	}
	m, ok := metricByName(canonical(name))
	if !ok {
		hint := ""
		if d := didyoumean.Suggest(name, Names()); d != "" {
			hint = fmt.Sprintf(" (did you mean %q?)", d)
		}
		return Rule{}, fmt.Errorf("unknown metric %q%s; allowed: %s", name, hint, strings.Join(Names(), ", "))
	}
	if strings.HasPrefix(num, "=") || strings.ContainsAny(num, "<>") {
		return Rule{}, errors.New("one comparison, < or >, followed by a percentage")
	}
	if !strings.HasSuffix(num, "%") {
		return Rule{}, fmt.Errorf("threshold %q: want a percentage such as -3%% or +10%%", num)
	}
	pct, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(num, "%")), 64)
	if err != nil || math.IsNaN(pct) || math.IsInf(pct, 0) || math.Abs(pct) > 1000 {
		return Rule{}, fmt.Errorf("threshold %q: want a percentage between -1000%% and +1000%%", num)
	}
	if op == '<' && pct >= 0 || op == '>' && pct <= 0 {
		return Rule{}, fmt.Errorf("threshold %q: '%c' needs a %s percentage (a change %s than it)", num, op,
			map[byte]string{'<': "negative", '>': "positive"}[op], map[byte]string{'<': "lower", '>': "higher"}[op])
	}
	return Rule{Metric: m, Op: op, Pct: pct, Text: fmt.Sprintf("%s%c%+g%%", name, op, pct)}, nil
}

func canonical(name string) string {
	if c, ok := aliases[strings.ToLower(name)]; ok {
		return c
	}
	return strings.ToLower(name)
}

// String is the rules as one flag value.
func String(rules []Rule) string {
	var parts []string
	for _, r := range rules {
		parts = append(parts, r.Text)
	}
	return strings.Join(parts, ",")
}

// Firing is a rule that fired on one verdict row.
type Firing struct {
	Rule Rule
	Row  stats.Row
}

// String says what fired, e.g. "GETSingle: pr vs base: throughput -5.20%
// (p=0.008 n=8) beyond throughput<-3%".
func (f Firing) String() string {
	r := f.Row
	return fmt.Sprintf("%s: %s vs %s: %s %+.2f%% (%s) beyond %s", r.Scenario, r.VariantName, r.BaselineName,
		r.Metric.Label, r.DeltaPct, r.PString(), f.Rule.Text)
}

// Evaluate returns the rows on which a rule fires: the metric's change is
// significant (the verdict's test, at this look's threshold) and beyond
// the rule's percentage. A row whose change is unknown never fires; one
// from a baseline of 0 (±Inf, e.g. errors appearing) fires in its direction.
func Evaluate(rules []Rule, v *stats.Verdicts) []Firing {
	var out []Firing
	for _, r := range rows(v) {
		for _, rule := range rules {
			if fires(rule, r) {
				out = append(out, Firing{Rule: rule, Row: r})
			}
		}
	}
	return out
}

// fires reports whether rule fires on r.
func fires(rule Rule, r stats.Row) bool {
	if rule.Metric.Name != r.Metric.Name || !r.Significant || r.Baseline.N == 0 || r.Variant.N == 0 || math.IsNaN(r.DeltaPct) {
		return false
	}
	return rule.Op == '<' && r.DeltaPct < rule.Pct || rule.Op == '>' && r.DeltaPct > rule.Pct
}

// Blind returns, per rule, the rows on which the rule could not have fired
// for a change of its own size: the run's minimum detectable effect (80 %
// power) is larger than the threshold, or unknown. A row on which the rule
// fired is decided, never blind. A gate that did not fire but was blind
// somewhere is inconclusive (Decide).
func Blind(rules []Rule, v *stats.Verdicts) []Firing {
	var out []Firing
	for _, r := range rows(v) {
		for _, rule := range rules {
			if rule.Metric.Name == r.Metric.Name && !(r.MDEPct <= math.Abs(rule.Pct)) && !fires(rule, r) && !unchanged(r) && !against(rule, r) {
				out = append(out, Firing{Rule: rule, Row: r})
			}
		}
	}
	return out
}

// against reports whether r changed significantly the other way than
// rule looks for (throughput down, for a rule on throughput up): the run
// decided that the rule's change did not happen, whatever its MDE.
func against(rule Rule, r stats.Row) bool {
	return r.Significant && !math.IsNaN(r.DeltaPct) && (rule.Op == '>' && r.DeltaPct < 0 || rule.Op == '<' && r.DeltaPct > 0)
}

// Unmeasured returns the rules whose metric no comparison of the run
// measured (a Server-Timing phase without server-timing-enabled, the JWT
// cache without tokens in the requests): they can decide nothing, and the
// gate is inconclusive with them.
func Unmeasured(rules []Rule, v *stats.Verdicts) []Rule {
	seen := map[string]bool{}
	for _, r := range rows(v) {
		if r.Baseline.N > 0 && r.Variant.N > 0 {
			seen[r.Metric.Name] = true
		}
	}
	var out []Rule
	for _, rule := range rules {
		if !seen[rule.Metric.Name] {
			out = append(out, rule)
		}
	}
	return out
}

// unchanged reports whether every trial of both sides read the same value
// (errors 0 throughout, say): no MDE is stated for a change from a
// constant, yet none happened in any round, so the rule is not blind there.
func unchanged(r stats.Row) bool {
	b, v := r.Baseline.Values, r.Variant.Values
	if len(b) == 0 || len(v) == 0 {
		return false
	}
	other := func(y float64) bool { return y != b[0] }
	return !slices.ContainsFunc(b, other) && !slices.ContainsFunc(v, other)
}

// Decision is what a gate decided on a run.
type Decision string

// The decisions, as reports print them.
const (
	// Failed: a rule fired (a significant change beyond its threshold).
	Failed Decision = "failed"
	// Inconclusive: no rule fired, but on some comparison a rule could not
	// have seen a change of its own size (Blind): the run neither passes
	// nor fails the gate.
	Inconclusive Decision = "inconclusive"
	// Passed: no rule fired, and every rule could have on every comparison.
	Passed Decision = "passed"
)

// Decide is the gate's decision from how many rows fired and on how many
// a rule was blind.
func Decide(fired, blind int) Decision {
	switch {
	case fired > 0:
		return Failed
	case blind > 0:
		return Inconclusive
	}
	return Passed
}

// BlindString says what a blind row could not see, e.g. "GETSingle: pr
// vs base: throughput: mde ±12.0% > 3% (throughput<-3%)".
func (f Firing) BlindString() string {
	r := f.Row
	return fmt.Sprintf("%s: %s vs %s: %s: mde %s > %g%% (%s)", r.Scenario, r.VariantName, r.BaselineName, r.Metric.Label,
		r.MDEString(), math.Abs(f.Rule.Pct), f.Rule.Text)
}

// Decides is a stop rule's condition under a gate (session.Options.Gate):
// at this look, a rule fired (the gate failed, whatever more rounds
// would show) or no rule is blind on any comparison. A rule on a metric
// the run does not measure never holds the run up: more rounds would not
// measure it. Without rules it is nil: no condition.
func Decides(rules []Rule) func(*lab.Run) bool {
	if len(rules) == 0 {
		return nil
	}
	return func(run *lab.Run) bool {
		v := stats.Compare(run, 0)
		return len(Evaluate(rules, v)) > 0 || len(Blind(rules, v)) == 0
	}
}
