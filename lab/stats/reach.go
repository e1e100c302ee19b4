package stats

import (
	"fmt"
	"math"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// MinP is the smallest two-sided p-value the verdicts' rank test can give:
// with n pairs the Wilcoxon signed-rank test's 2/2^n (every ratio on one
// side), with n values per group the Mann-Whitney U test's 2/C(2n, n)
// (the groups apart). However large a change, no data gives less.
func MinP(n int, paired bool) float64 {
	if n < 1 {
		return 1
	}
	if paired {
		return math.Min(1, math.Ldexp(2, -n))
	}
	// C(2n, n) = Γ(2n+1) / Γ(n+1)²
	a, _ := math.Lgamma(float64(2*n + 1))
	b, _ := math.Lgamma(float64(n + 1))
	return math.Min(1, 2/math.Exp(a-2*b))
}

// Reachable reports whether the test can reach a verdict at threshold with
// n pairs (paired) or n values per group: whether MinP is at most it.
// Where it cannot, no change would be detected whatever its size, and no
// minimum detectable effect is stated (MDEPct is +Inf).
func Reachable(n int, threshold float64, paired bool) bool {
	return MinP(n, paired) <= threshold
}

// RoundsNeeded is the fewest pairs (paired) or values per group for which
// the test can reach p <= threshold (at most 64).
func RoundsNeeded(threshold float64, paired bool) int {
	n := 1
	for !Reachable(n, threshold, paired) && n < 64 {
		n++
	}
	return n
}

// DesignFor is the design of e's verdicts at its own alpha (DefaultAlpha
// when unset): its rounds, alpha and whether it is sequential.
func DesignFor(e *lab.Experiment) Design {
	alpha := e.Trials.Alpha
	if alpha <= 0 {
		alpha = DefaultAlpha
	}
	return Design{Min: e.Trials.Min, Max: e.Trials.Max, Alpha: alpha, Sequential: e.Trials.IsSequential()}
}

// Reach says whether an experiment's trials can reach a verdict at all:
// with trials.max rounds, at its last look's threshold, the test its
// analysis uses (paired unless "unpaired") must be able to give a p-value
// that low. It returns "" when it can, or when nothing is compared (fewer
// than two variants), else a warning that says the minimum.
func Reach(e *lab.Experiment) string {
	if len(e.Variants) < 2 {
		return ""
	}
	d := DesignFor(e)
	paired := e.Trials.Analysis != AnalysisUnpaired
	if th := d.NominalAlpha(d.Max); Reachable(d.Max, th, paired) {
		return ""
	}
	need := d.Max
	for ; need < 64; need++ {
		dd := d
		dd.Max, dd.Min = need, min(d.Min, need)
		if Reachable(need, dd.NominalAlpha(need), paired) {
			break
		}
	}
	test, unit := "the paired signed-rank test", "pairs (rounds)"
	if !paired {
		test, unit = "the Mann-Whitney U test", "trials per variant and scenario"
	}
	return fmt.Sprintf("trials.max = %d cannot reach a verdict: with %d %s %s gives no p-value below %.3g, above the %.3g it must reach; no change would be detected, however large, and no MDE is stated. It needs trials.max >= %d",
		d.Max, d.Max, unit, test, MinP(d.Max, paired), d.NominalAlpha(d.Max), need)
}
