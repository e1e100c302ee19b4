package stats

import (
	"math"
	"sort"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// Analyses: which test a verdict uses.
const (
	AnalysisAuto     lab.Analysis = ""                   // paired when the rounds are complete pairs
	AnalysisPaired                = lab.AnalysisPaired   // Wilcoxon signed-rank on per-round log-ratios
	AnalysisUnpaired              = lab.AnalysisUnpaired // Mann-Whitney U on the two samples
)

// Test names, as rows and reports show them.
const (
	TestSignedRank  = "paired signed-rank"
	TestMannWhitney = "Mann-Whitney U"
)

// pairs returns, for each round in which both groups have a valid value of
// m, the log-ratio ln(variant/baseline) and the round (Trial.Rep), in
// round order, and how many rounds had a value in either group. A round
// with a repeated trial uses the last valid one.
func pairs(base, vari []lab.Trial, m lab.Metric) (logRatios []float64, reps []int, rounds int) {
	b, v := byRound(base, m), byRound(vari, m)
	seen := map[int]bool{}
	var all []int
	for _, mp := range []map[int]float64{b, v} {
		for r := range mp {
			if !seen[r] {
				seen[r] = true
				all = append(all, r)
			}
		}
	}
	sort.Ints(all)
	for _, r := range all {
		bv, okb := b[r]
		vv, okv := v[r]
		switch {
		case !okb || !okv:
			continue
		case bv == vv: // also 0 and 0, e.g. no errors in either
			logRatios = append(logRatios, 0)
		case bv > 0 && vv > 0:
			logRatios = append(logRatios, math.Log(vv/bv))
		default:
			continue
		}
		reps = append(reps, r)
	}
	return logRatios, reps, len(all)
}

func byRound(trials []lab.Trial, m lab.Metric) map[int]float64 {
	out := map[int]float64{}
	for _, t := range trials {
		if t.Error != "" {
			continue
		}
		if x, ok := m.Of(t); ok && !math.IsNaN(x) && !math.IsInf(x, 0) {
			out[t.Rep] = x
		}
	}
	return out
}

// Paired is the paired (blocked) analysis of one row: the per-round
// log-ratios variant/baseline and their summary.
type Paired struct {
	// N is the number of complete pairs (rounds where both were measured).
	N int
	// ChangePct is the median per-round change in percent, with its
	// confidence interval (order statistics of the log-ratios; ±Inf when
	// there are too few pairs).
	ChangePct, LoPct, HiPct float64
	// P is the Wilcoxon signed-rank p-value of the log-ratios.
	P float64
	// SD is the standard deviation of the log-ratios (the noise the
	// pairing leaves; ≈ the relative noise of the ratio).
	SD float64
	// Speed is set when the log-ratios were adjusted for the machine's
	// speed; the fields above then describe the adjusted ones.
	Speed *SpeedAdjustment
}

// analysePairs summarises log-ratios; ok is false without any pair.
func analysePairs(lr []float64) (Paired, bool) {
	if len(lr) == 0 {
		return Paired{P: 1, ChangePct: math.NaN(), LoPct: math.Inf(-1), HiPct: math.Inf(1)}, false
	}
	s, _ := Summarize(lr)
	pct := func(x float64) float64 { return 100 * (math.Exp(x) - 1) }
	return Paired{N: len(lr), ChangePct: pct(s.Median), LoPct: pct(s.Lo), HiPct: pct(s.Hi), P: SignedRankP(lr), SD: sd(lr)}, true
}

// sd is the sample standard deviation (0 for fewer than two values).
func sd(xs []float64) float64 {
	if len(xs) < 2 {
		return 0
	}
	var m float64
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	var v float64
	for _, x := range xs {
		v += (x - m) * (x - m)
	}
	return math.Sqrt(v / float64(len(xs)-1))
}

// logSD is the pooled standard deviation of the logs of two samples: the
// relative noise the unpaired test sees.
func logSD(a, b []float64) float64 {
	var ss float64
	df := 0
	for _, xs := range [][]float64{a, b} {
		var ls []float64
		for _, x := range xs {
			if x > 0 {
				ls = append(ls, math.Log(x))
			}
		}
		if len(ls) < 2 {
			continue
		}
		s := sd(ls)
		ss += s * s * float64(len(ls)-1)
		df += len(ls) - 1
	}
	if df == 0 {
		return 0
	}
	return math.Sqrt(ss / float64(df))
}

// PairedRatios are the per-round ratios variant/baseline of metric m in
// one scenario of run (rounds where both were measured), in round order:
// the paired view of a run that a series across runs keeps (lab track
// --reference, package history).
func PairedRatios(run *lab.Run, baseline, variant, scenario string, m lab.Metric) []float64 {
	lr, _, _ := pairs(TrialsOf(run, baseline, scenario), TrialsOf(run, variant, scenario), m)
	out := make([]float64, len(lr))
	for i, x := range lr {
		out[i] = math.Exp(x)
	}
	return out
}
