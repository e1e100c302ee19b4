package stats

import (
	"math"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// DefaultCV is the relative noise per trial assumed by Plan when no earlier
// run is given: 5 %, so per-round ratios vary by about 7 % (as the
// socket-vs-tcp runs on a 2-core machine did: ratios 0.89..1.14).
const DefaultCV = 0.05

// DefaultTrialOverhead is the time per trial beyond warm-up and duration
// (restart, readiness, counters) that Plan assumes without an earlier run.
const DefaultTrialOverhead = 2500 * time.Millisecond

// Noise is a run's noise in its primary metric.
type Noise struct {
	// SD is the standard deviation of the per-round log-ratios (paired)
	// or of the log values (unpaired), the largest over the run's
	// (scenario, variant) pairs.
	SD     float64
	Paired bool
	// N is the number of values SD was estimated from (pairs or trials).
	N int
	// PerTrial is the run's mean wall time per trial.
	PerTrial time.Duration
}

// NoiseOf estimates the noise of run's primary metric, as the verdicts
// would see it: paired when every round is complete, unless analysis says
// otherwise, and adjusted for the machine's speed when the verdict is. ok
// is false when no pair of groups has two values.
func NoiseOf(run *lab.Run, analysis lab.Analysis) (Noise, bool) {
	var nz Noise
	m := lab.PrimaryMetric(&run.Experiment)
	base := BaselineName(run)
	found := false
	for _, sc := range ScenarioNames(run) {
		b := TrialsOf(run, base, sc)
		for _, name := range VariantNames(run) {
			if name == base {
				continue
			}
			v := TrialsOf(run, name, sc)
			lr, rounds, _ := verdictPairs(b, v, m, run.Experiment.Trials.AdjustsForSpeed(), AlphaFor(run, 0))
			paired := analysis == AnalysisPaired || (analysis == AnalysisAuto && len(lr) == rounds && len(lr) >= 2)
			sdv, n := sd(lr), len(lr)
			if !paired {
				bv, vv := valuesOf(b, m), valuesOf(v, m)
				sdv, n = logSD(bv, vv), min(len(bv), len(vv))
			}
			if n >= 2 && (!found || sdv > nz.SD) {
				nz.SD, nz.Paired, nz.N, found = sdv, paired, n, true
			}
		}
	}
	if len(run.Trials) > 0 && run.Finished.After(run.Started) {
		nz.PerTrial = run.Finished.Sub(run.Started) / time.Duration(len(run.Trials))
	}
	return nz, found
}

// Plan is an estimate of what an experiment needs to detect an effect.
type Plan struct {
	EffectPct float64
	Noise     Noise
	// Rounds is the trials per variant and scenario (rounds) needed for
	// Power at the final look; OK is false when more than the limit.
	Rounds int
	OK     bool
	// Trials is Rounds × variants × scenarios, Duration their wall time.
	Trials   int
	Duration time.Duration
	// MDEAtMax is what the experiment as configured (trials.max) detects.
	MDEAtMax float64
}

// PlanLimit bounds the rounds Plan considers.
const PlanLimit = 500

// PlanFor estimates the rounds and time e needs to detect effectPct with
// Power, given the noise; the design (alpha, min, sequential) is e's.
// Without a measured time per trial it assumes warm-up + duration +
// DefaultTrialOverhead.
func PlanFor(e *lab.Experiment, nz Noise, effectPct float64) Plan {
	d := DesignFor(e)
	p := Plan{EffectPct: math.Abs(effectPct), Noise: nz}
	p.Rounds, p.OK = PlanRounds(d, nz.SD, p.EffectPct, nz.Paired, PlanLimit)
	p.MDEAtMax = MDEPct(nz.SD, d.Max, d.NominalAlpha(d.Max), nz.Paired)
	per := nz.PerTrial
	p.Trials = p.Rounds * len(e.Variants) * len(e.Scenarios)
	p.Duration = time.Duration(p.Trials) * per
	if per <= 0 { // a round's loads one after the other (a duet's two variants share each)
		p.Duration = time.Duration(p.Rounds*e.LoadsPerRound()) * (e.Load.Warmup + e.Load.Duration + DefaultTrialOverhead)
	}
	return p
}
