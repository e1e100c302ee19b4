package stats

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"golang.org/x/perf/benchmath"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/postgrest"
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
	// NotComparable is a row whose two sides measure different things
	// (Server-Timing phases of PostgREST before and from 14.2): both
	// sides' figures, no test, and a warning saying why.
	NotComparable Outcome = "not comparable"
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
	// Design is how rows were tested, Rounds the look they were tested at.
	Design Design
	Rounds int
	// Primary is the headline metric (throughput, or CPU per request in
	// efficiency mode).
	Primary lab.Metric
	// Sweep is the sweep's curves and recommendation (nil without a sweep).
	Sweep *SweepResult
	// Endpoints are the per-line verdicts of scenarios replaying a targets
	// file (see Endpoint), per scenario and variant, in file order.
	Endpoints []Endpoint
}

// The paired test as Method states it: for every row, or (mixed) for the
// rows whose rounds all measured both variants, with Mann-Whitney U for
// the others. Which one a run states depends on its data (a round with a
// failed trial), not on its design.
const (
	MethodPaired      = "paired Wilcoxon signed-rank test on per-round ratios (variant/baseline)"
	MethodPairedMixed = "paired Wilcoxon signed-rank test on per-round ratios where every round measured both variants, Mann-Whitney U elsewhere"
)

// Method describes, in a sentence, how the verdicts were reached: the
// test, and for a sequential design the look and its threshold.
func (v *Verdicts) Method() string { return v.method(true) }

// DesignMethod is Method without this run's look: the design as a
// calibration of many runs states it, with the last look's threshold.
func (v *Verdicts) DesignMethod() string { return v.method(false) }

func (v *Verdicts) method(thisLook bool) string {
	tests := map[string]bool{}
	for _, r := range v.Rows {
		tests[r.Test] = true
	}
	var test string
	switch {
	case tests[TestSignedRank] && tests[TestMannWhitney]:
		test = MethodPairedMixed
	case tests[TestSignedRank]:
		test = MethodPaired
	default:
		test = "Mann-Whitney U test (unpaired)"
	}
	s := fmt.Sprintf("%s, alpha %g", test, v.Alpha)
	d := v.Design
	if d.Sequential && d.Max > d.Min && d.Min > 0 && thisLook {
		s += fmt.Sprintf("; group-sequential (Lan-DeMets O'Brien-Fleming spending over looks after rounds %d..%d): look after %d rounds, significant at p <= %.3g",
			d.Min, d.Max, v.Rounds, d.NominalAlpha(v.Rounds))
	} else if d.Sequential && d.Max > d.Min && d.Min > 0 {
		s += fmt.Sprintf("; group-sequential (Lan-DeMets O'Brien-Fleming spending over looks after rounds %d..%d): the first look significant at p <= %.2g, the last at p <= %.3g",
			d.Min, d.Max, d.NominalAlpha(d.Min), d.NominalAlpha(d.Max))
	} else if d.Max > d.Min && d.Min > 0 {
		s += fmt.Sprintf("; looks after every round from %d tested at alpha (not sequential: more false positives)", d.Min)
	}
	if v.speedAdjusted() {
		s += "; CPU per request adjusted for the machine's speed (each round's ratio less the fitted share explained by the ratio of timed reference work, memory chases and system calls, run in both trials)"
	}
	return s + fmt.Sprintf("; MDE = change detectable with %.0f%% power given the run's noise", 100*Power)
}

// speedAdjusted reports whether a verdict used speed-adjusted ratios.
func (v *Verdicts) speedAdjusted() bool {
	for _, r := range v.Rows {
		if r.Test == TestSignedRank && r.Paired != nil && r.Paired.Speed != nil {
			return true
		}
	}
	return false
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
	// DeltaPct is the change in percent (variant vs baseline) that the
	// verdict's test estimates: for a paired row the median per-round
	// change (speed-adjusted where Paired.Speed says so), otherwise the
	// change of the medians; ±Inf when the baseline median is 0, NaN when
	// unknown. A paired verdict and the figure shown with it thus never
	// disagree in sign.
	DeltaPct float64
	// P is the p-value of the verdict's test (Test), compared with
	// Threshold; PUnpaired is the Mann-Whitney p-value, always computed.
	P         float64
	PUnpaired float64
	// Test is the test the verdict uses: TestSignedRank or TestMannWhitney.
	Test string
	// Paired is the paired analysis (nil when the rows could not be paired,
	// e.g. across runs).
	Paired *Paired
	// Alpha is the run's overall significance level; Threshold is the
	// p-value threshold of this look (below Alpha for a sequential design
	// that could have stopped earlier).
	Alpha     float64
	Threshold float64
	// MDEPct is the minimum detectable effect (±%, at Power) given this
	// run's noise, number of trials and Threshold.
	MDEPct      float64
	Significant bool
	Outcome     Outcome
	Warnings    []string
	// Noise are the warnings of Warnings that say a median's interval is
	// wider than ±NoiseLimit: reports mark the cell instead of listing them.
	Noise []string
}

// OtherWarnings are Warnings without Noise.
func (r Row) OtherWarnings() []string {
	var out []string
	for _, w := range r.Warnings {
		if !slices.Contains(r.Noise, w) {
			out = append(out, w)
		}
	}
	return out
}

// Delta formats the change like benchstat: "~" when not significant,
// otherwise a signed percentage.
func (r Row) Delta() string {
	switch {
	case r.Baseline.N == 0 || r.Variant.N == 0:
		return "?"
	case r.Outcome == NotComparable:
		return "n/c"
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
// ("p=0.002 n=10", "p=0.310 n=5+6"), and says so when a p below alpha is
// above the sequential bound of the look ("p=0.005 n=12, above this
// look's bound 0.0031").
func (r Row) PString() string {
	if r.Outcome == NotComparable {
		return "no test"
	}
	s := fmt.Sprintf("p=%.3f ", r.P)
	if r.Baseline.N == r.Variant.N {
		s += fmt.Sprintf("n=%d", r.Baseline.N)
	} else {
		s += fmt.Sprintf("n=%d+%d", r.Baseline.N, r.Variant.N)
	}
	if !r.Significant && r.P <= r.Alpha && r.Threshold > 0 && r.Threshold < r.Alpha {
		// A p below alpha that is no verdict: the sequential design's
		// bound at this look is lower (issue 55: "p=0.005 ~" read as a
		// contradiction with alpha 0.05 stated).
		s += fmt.Sprintf(", above this look's bound %.4f", r.Threshold)
	}
	return s
}

// DiffCI is a confidence interval of the change in percent. For a paired
// row it is the interval of the median per-round change; otherwise it is
// conservative, from the two medians' intervals: [variant.Lo/baseline.Hi-1,
// variant.Hi/baseline.Lo-1]. ok is false when an interval is unbounded or
// the baseline's lower bound is not positive.
func (r Row) DiffCI() (lo, hi float64, ok bool) {
	if p := r.Paired; p != nil && r.Test == TestSignedRank {
		if math.IsInf(p.LoPct, 0) || math.IsInf(p.HiPct, 0) {
			return math.Inf(-1), math.Inf(1), false
		}
		return p.LoPct, p.HiPct, true
	}
	b, v := r.Baseline, r.Variant
	if !b.Bounded() || !v.Bounded() || b.Lo <= 0 || b.Hi <= 0 {
		return math.Inf(-1), math.Inf(1), false
	}
	return 100 * (v.Lo/b.Hi - 1), 100 * (v.Hi/b.Lo - 1), true
}

// MDEString says how small a change this row could have missed, e.g.
// "±3.1%", or "?" when the noise is unknown (fewer than two trials).
func (r Row) MDEString() string {
	switch {
	case r.zeroMedian(), r.Outcome == NotComparable:
		return "—"
	}
	return mdeText(r.MDEPct)
}

// mdeText is a minimum detectable effect as the reports write it: "±3.1%",
// whole percents from 100 % ("±222%": a tenth of a percent would say more
// than the run knows, which could not have seen even a doubling), or "?"
// when there is none to state (MDEPct is +Inf).
func mdeText(pct float64) string {
	switch {
	case math.IsInf(pct, 0) || math.IsNaN(pct):
		return "?"
	case pct >= 100:
		return fmt.Sprintf("±%.0f%%", pct)
	}
	return fmt.Sprintf("±%.1f%%", pct)
}

// Undecidable reports whether the row's test could not reach a verdict
// at its threshold with the values it had (Reachable): no change would
// have been detected, however large, so the row states no MDE.
func (r Row) Undecidable() bool {
	if r.Baseline.N == 0 || r.Variant.N == 0 {
		return false
	}
	if r.Test == TestSignedRank && r.Paired != nil {
		return !Reachable(r.Paired.N, r.Threshold, true)
	}
	return !Reachable(min(r.Baseline.N, r.Variant.N), r.Threshold, false)
}

// zeroMedian reports a row whose baseline or variant median is zero (no
// errors, no timeouts): a change relative to zero has no size, so neither
// has the smallest detectable one.
func (r Row) zeroMedian() bool {
	return r.Baseline.N > 0 && r.Variant.N > 0 && (r.Baseline.Median == 0 || r.Variant.Median == 0)
}

// MDESentence says how large a change this row could have missed, e.g.
// "changes smaller than ±3.1% would not have been detected by this run".
func (r Row) MDESentence() string {
	switch r.MDEString() {
	case "?":
		if r.Undecidable() {
			n, what := min(r.Baseline.N, r.Variant.N), "trials per variant"
			if r.Test == TestSignedRank && r.Paired != nil {
				n, what = r.Paired.N, "pairs"
			}
			return fmt.Sprintf("with %d %s the test cannot reach p <= %.3g: no change could have been detected, however large (it needs >= %d)",
				n, what, r.Threshold, RoundsNeeded(r.Threshold, r.Test == TestSignedRank && r.Paired != nil))
		}
		return "too few trials to say which changes this run could detect"
	case "—":
		return "a median of zero has no relative change to detect"
	}
	return "changes smaller than " + r.MDEString() + " would not have been detected by this run"
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

// Headlines returns the rows of the primary metric (Primary), one per
// scenario and variant: the verdicts to show first.
func (v *Verdicts) Headlines() []Row {
	primary := v.Primary.Name
	if primary == "" {
		primary = lab.Metrics[0].Name
	}
	var out []Row
	for _, r := range v.Rows {
		if r.Metric.Name == primary {
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
	// version is what the group's variant ran (lab.VariantVersion): it
	// decides whether its Server-Timing phases compare with another's.
	version string
}

// look is how one comparison is tested: the design, the look (rounds so
// far), the requested analysis and whether rows can be paired by round.
type look struct {
	design   Design
	rounds   int
	analysis lab.Analysis
	pairable bool
	// primary is the headline metric; primaryOnly skips the other
	// metrics' rows (for the stopping rule, which still tests the lines of
	// a targets file: Decided).
	primary     string
	primaryOnly bool
	// speedAdjust adjusts CPU metrics for the machine's speed reference.
	speedAdjust bool
}

// compareGroups builds the rows of every metric for one pair of groups.
func compareGroups(scenario string, base, vari group, lk look) []Row {
	common := append(groupWarnings(base), groupWarnings(vari)...)
	var rows []Row
	// The speed reference's "by chance or by the variant" is said once,
	// on every row it decided (see requireBoth).
	var unsure []int
	var unsureNotes []string
	unsureP := ""
	primary := lk.primary
	if primary == "" {
		primary = lab.Metrics[0].Name
	}
	phaseNote := postgrest.PhaseClockNote(base.version, vari.version)
	for _, m := range lab.Metrics {
		if lk.primaryOnly && m.Name != primary {
			continue
		}
		bv, vv := valuesOf(base.trials, m), valuesOf(vari.trials, m)
		if len(bv) == 0 && len(vv) == 0 && m.Name != primary {
			// Not measured in this run (e.g. no telemetry). The primary
			// metric always has a row, to carry the warnings.
			continue
		}
		if phaseNote != "" && strings.HasPrefix(m.Name, lab.PhasePrefix) && m.Name != primary {
			rows = append(rows, notComparable(scenario, m, base.name, bv, vari.name, vv, lk, phaseNote))
			continue
		}
		var lr []float64
		var sp speedResult
		ws := common
		rounds := 0
		if lk.pairable {
			lr, rounds, sp = verdictPairs(base.trials, vari.trials, m, lk.speedAdjust, lk.design.Alpha)
			if sp.warn != "" && sp.check != speedUnsure { // requireBoth says it
				ws = append([]string{sp.warn}, common...)
			}
		}
		r := compareMetric(scenario, m, m.Name == primary, base.name, bv, vari.name, vv, lr, rounds, lk, ws)
		unmeasured(&r, base, bv, vv)
		unmeasured(&r, vari, vv, bv)
		if r.Paired != nil {
			r.Paired.Speed = sp.adj
		}
		if sp.check == speedUnsure && r.Test == TestSignedRank {
			if note := sp.requireBoth(&r); note != "" {
				unsure, unsureNotes, unsureP = append(unsure, len(rows)), append(unsureNotes, note), sp.warn
			}
		}
		rows = append(rows, r)
	}
	if len(unsure) > 0 {
		w := speedUnsureWarning(unsureP, unsureNotes)
		for _, i := range unsure {
			rows[i].Warnings = dedupe(append([]string{w}, rows[i].Warnings...))
		}
	}
	return rows
}

// unmeasured rewords a side's "no valid trials" when that side has valid
// trials and the other side measured the metric: the side did not report
// that metric (e.g. the JWT cache's hit rate, which PostgREST before 14.0
// does not expose), its trials are fine.
func unmeasured(r *Row, g group, values, other []float64) {
	if len(values) > 0 || len(other) == 0 || !slices.ContainsFunc(g.trials, func(t lab.Trial) bool { return t.Error == "" }) {
		return
	}
	for i, w := range r.Warnings {
		if w == g.name+": "+noValidTrials {
			r.Warnings[i] = fmt.Sprintf("%s: no trial measured %s", g.name, r.Metric.Label)
		}
	}
}

// compareMetric compares one metric's values of baseline and variant; lr
// are the per-round log-ratios of the rounds measured (rounds of them
// had a value in either group).
func compareMetric(scenario string, m lab.Metric, isPrimary bool, bname string, bv []float64, vname string, vv []float64, lr []float64, rounds int, lk look, common []string) Row {
	alpha := lk.design.Alpha
	r := Row{Scenario: scenario, Metric: m, BaselineName: bname, VariantName: vname, Alpha: alpha, P: 1, PUnpaired: 1,
		Outcome: Same, DeltaPct: math.NaN(), Test: TestMannWhitney, Threshold: lk.design.NominalAlpha(lk.rounds), MDEPct: math.Inf(1)}
	var ws []string
	var w []string
	r.Baseline, w = Summarize(bv)
	ws = append(ws, prefix(bname, w)...)
	r.Variant, w = Summarize(vv)
	ws = append(ws, prefix(vname, w)...)
	paired, okPairs := analysePairs(lr)
	if okPairs {
		r.Paired = &paired
	}
	switch {
	case lk.analysis == AnalysisUnpaired || !lk.pairable:
	case lk.analysis == AnalysisPaired && !okPairs:
		ws = append(ws, "paired analysis asked for, but no round measured both variants: the verdict uses the unpaired test")
	case lk.analysis == AnalysisPaired || (okPairs && len(lr) == rounds):
		r.Test = TestSignedRank
	case isPrimary:
		// Said once, for the headline; secondary metrics follow silently.
		ws = append(ws, fmt.Sprintf("only %d of %d rounds measured both variants: the verdict uses the unpaired test", len(lr), rounds))
	}
	if r.Baseline.N > 0 && r.Variant.N > 0 {
		r.DeltaPct = deltaPct(r.Baseline.Median, r.Variant.Median)
		var mwWarnings []string
		// The stopping rule needs only the verdict's own test.
		needMW := !lk.primaryOnly || r.Test == TestMannWhitney
		if needMW && !allEqual(r.Baseline.Values, r.Variant.Values) {
			th := benchmath.Thresholds{CompareAlpha: r.Threshold}
			c := benchmath.AssumeNothing.Compare(benchmath.NewSample(append([]float64(nil), bv...), &th),
				benchmath.NewSample(append([]float64(nil), vv...), &th))
			r.PUnpaired = c.P
			mwWarnings = errStrings(c.Warnings)
		}
		if r.Test == TestSignedRank {
			r.P = paired.P
			r.DeltaPct = paired.ChangePct
			if !lk.primaryOnly {
				r.MDEPct = MDEPct(paired.SD, paired.N, r.Threshold, true)
			}
			if !Reachable(paired.N, r.Threshold, true) {
				ws = append(ws, fmt.Sprintf("paired: need >= %d pairs to detect a difference at p <= %.3g", RoundsNeeded(r.Threshold, true), r.Threshold))
			}
		} else {
			r.P = r.PUnpaired
			if !lk.primaryOnly {
				r.MDEPct = MDEPct(logSD(bv, vv), min(r.Baseline.N, r.Variant.N), r.Threshold, false)
			}
			ws = append(ws, mwWarnings...)
		}
		r.Significant = r.P <= r.Threshold
		r.Outcome = outcome(r, m)
	}
	for _, s := range []struct {
		name string
		sum  Summary
	}{{bname, r.Baseline}, {vname, r.Variant}} {
		if s.sum.Noisy() {
			w := fmt.Sprintf("%s: %s is noisy (CI ±%.0f%% of the median, limit ±%.0f%%)", s.name, m.Label, s.sum.SpreadPct(), 100*NoiseLimit)
			ws = append(ws, w)
			r.Noise = append(r.Noise, w)
		}
	}
	r.Warnings = dedupe(append(ws, common...))
	return r
}

// notComparable is the row of a metric whose two sides measure different
// things: both sides' summaries, no test (P 1, no MDE, not significant),
// and why as its first warning.
func notComparable(scenario string, m lab.Metric, bname string, bv []float64, vname string, vv []float64, lk look, why string) Row {
	r := Row{Scenario: scenario, Metric: m, BaselineName: bname, VariantName: vname, Alpha: lk.design.Alpha, P: 1, PUnpaired: 1,
		Outcome: NotComparable, DeltaPct: math.NaN(), Test: TestMannWhitney, Threshold: lk.design.NominalAlpha(lk.rounds), MDEPct: math.Inf(1)}
	r.Baseline, _ = Summarize(bv)
	r.Variant, _ = Summarize(vv)
	r.Warnings = []string{"Server-Timing phases: " + why}
	return r
}

func outcome(r Row, m lab.Metric) Outcome {
	if !r.Significant {
		return Same
	}
	d := r.Variant.Median - r.Baseline.Median
	if r.Test == TestSignedRank && r.Paired != nil {
		d = r.Paired.ChangePct
	}
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
