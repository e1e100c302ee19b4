package stats

import (
	"slices"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// Compare compares every variant of run with its baseline, per scenario
// and metric. alpha <= 0 means the experiment's Trials.Alpha, else
// DefaultAlpha. Failed trials (Trial.Error) are left out, with a warning.
//
// Rows are tested as the experiment's design says (Trials.Analysis,
// Trials.Sequential, Min and Max): paired by round by default, with the
// p-value threshold of the look the run stopped at.
func Compare(run *lab.Run, alpha float64) *Verdicts {
	return compare(run, alpha, false)
}

func compare(run *lab.Run, alpha float64, primaryOnly bool) *Verdicts {
	base := BaselineName(run)
	var others []string
	for _, name := range VariantNames(run) {
		if name != base {
			others = append(others, name)
		}
	}
	return compareWith(run, alpha, primaryOnly, base, others)
}

// CompareWith compares the variants of run named in variants with the one
// named base instead of the run's baseline, as Compare does otherwise
// (paired by round, the run's design): e.g. a pull request's build with
// the latest release in a run whose baseline is the target branch. Names
// the run does not have give no rows.
func CompareWith(run *lab.Run, alpha float64, base string, variants ...string) *Verdicts {
	known := VariantNames(run)
	var vs []string
	for _, n := range variants {
		if slices.Contains(known, n) && slices.Contains(known, base) && n != base {
			vs = append(vs, n)
		}
	}
	return compareWith(run, alpha, false, base, vs)
}

func compareWith(run *lab.Run, alpha float64, primaryOnly bool, base string, variants []string) *Verdicts {
	alpha = AlphaFor(run, alpha)
	primary := lab.PrimaryMetric(&run.Experiment)
	lk := look{design: DesignOf(run, alpha), rounds: Rounds(run), analysis: run.Experiment.Trials.Analysis, pairable: true,
		primary: primary.Name, primaryOnly: primaryOnly, speedAdjust: run.Experiment.Trials.AdjustsForSpeed()}
	v := &Verdicts{Alpha: alpha, Confidence: Confidence, Baseline: base, Scenarios: ScenarioNames(run), Design: lk.design, Rounds: lk.rounds, Primary: primary}
	v.Variants = append(v.Variants, variants...)
	for _, sc := range v.Scenarios {
		b := groupOf(run, base, sc)
		for _, name := range v.Variants {
			g := groupOf(run, name, sc)
			v.Rows = append(v.Rows, compareGroups(sc, b, g, lk)...)
			v.Endpoints = append(v.Endpoints, endpoints(sc, b, g, lk)...) // Decided's too
		}
	}
	if !primaryOnly {
		v.Sweep = Sweep(run, alpha)
	}
	return v
}

// CompareRuns compares two runs, e.g. two PostgREST builds measured on
// different days: each variant of b against the variant of the same name
// in a (a is the baseline), per scenario both ran. When the runs share no
// variant name, their baselines are compared. Rows are named
// "<variant> (<label>)".
func CompareRuns(a, b *lab.Run, labelA, labelB string, alpha float64) *Verdicts {
	alpha = AlphaFor(a, alpha)
	// Two runs' trials are not paired, and each run is judged whole.
	primary := lab.PrimaryMetric(&a.Experiment)
	lk := look{design: Design{Alpha: alpha}, analysis: AnalysisUnpaired, primary: primary.Name}
	v := &Verdicts{Alpha: alpha, Confidence: Confidence, Baseline: labelA, Design: lk.design, Primary: primary}
	type pair struct{ a, b string }
	var pairs []pair
	inB := map[string]bool{}
	for _, n := range VariantNames(b) {
		inB[n] = true
	}
	for _, n := range VariantNames(a) {
		if inB[n] {
			pairs = append(pairs, pair{n, n})
		}
	}
	if len(pairs) == 0 {
		pairs = append(pairs, pair{BaselineName(a), BaselineName(b)})
	}
	scB := map[string]bool{}
	for _, s := range ScenarioNames(b) {
		scB[s] = true
	}
	for _, s := range ScenarioNames(a) {
		if scB[s] {
			v.Scenarios = append(v.Scenarios, s)
		}
	}
	for _, p := range pairs {
		v.Variants = append(v.Variants, p.b+" ("+labelB+")")
	}
	for _, sc := range v.Scenarios {
		for _, p := range pairs {
			ga, gb := groupOf(a, p.a, sc), groupOf(b, p.b, sc)
			ga.name = p.a + " (" + labelA + ")"
			gb.name = p.b + " (" + labelB + ")"
			v.Rows = append(v.Rows, compareGroups(sc, ga, gb, lk)...)
		}
	}
	return v
}

// AlphaFor returns alpha if positive, else the experiment's, else DefaultAlpha.
func AlphaFor(run *lab.Run, alpha float64) float64 {
	switch {
	case alpha > 0:
		return alpha
	case run != nil && run.Experiment.Trials.Alpha > 0:
		return run.Experiment.Trials.Alpha
	}
	return DefaultAlpha
}

// DesignOf is the run's test design: its experiment's Min, Max and
// Sequential, at alpha.
func DesignOf(run *lab.Run, alpha float64) Design {
	t := run.Experiment.Trials
	return Design{Min: t.Min, Max: t.Max, Alpha: alpha, Sequential: t.IsSequential()}
}

// Rounds is the number of rounds the run measured with at least one valid
// trial: the look the verdicts are tested at. Rounds left out whole (e.g.
// for interference) carry no information and do not count.
func Rounds(run *lab.Run) int {
	valid := map[int]bool{}
	for _, t := range run.Trials {
		if t.Error == "" {
			valid[t.Rep] = true
		}
	}
	return len(valid)
}

// BaselineName is the run's baseline variant: the one marked in
// run.Variants, else in the experiment, else the first variant seen.
func BaselineName(run *lab.Run) string {
	for _, v := range run.Variants {
		if v.Baseline {
			return v.Name
		}
	}
	for _, v := range run.Experiment.Variants {
		if v.Baseline {
			return v.Name
		}
	}
	if names := VariantNames(run); len(names) > 0 {
		return names[0]
	}
	return ""
}

// VariantNames lists the run's variants: those in run.Variants, then the
// experiment's, then any others found in trials, without repeats.
func VariantNames(run *lab.Run) []string {
	var names []string
	seen := map[string]bool{}
	add := func(n string) {
		if n != "" && !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	for _, v := range run.Variants {
		add(v.Name)
	}
	for _, v := range run.Experiment.Variants {
		add(v.Name)
	}
	for _, t := range run.Trials {
		add(t.Variant)
	}
	return names
}

// ScenarioNames lists the scenarios that have trials, in the experiment's
// order, then in order of appearance.
func ScenarioNames(run *lab.Run) []string {
	has := map[string]bool{}
	for _, t := range run.Trials {
		has[t.Scenario] = true
	}
	var names []string
	seen := map[string]bool{}
	add := func(n string) {
		if has[n] && !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	for _, s := range run.Experiment.Scenarios {
		add(s)
	}
	for _, s := range run.Experiment.Custom {
		add(s.Name)
	}
	for _, t := range run.Trials {
		add(t.Scenario)
	}
	return names
}

// TrialsOf returns the trials of one variant in one scenario, in run order.
func TrialsOf(run *lab.Run, variant, scenario string) []lab.Trial {
	var out []lab.Trial
	for _, t := range run.Trials {
		if t.Variant == variant && t.Scenario == scenario {
			out = append(out, t)
		}
	}
	return out
}

func groupOf(run *lab.Run, variant, scenario string) group {
	return group{name: variant, trials: TrialsOf(run, variant, scenario), events: run.Events, version: lab.VariantVersion(run, variant)}
}
