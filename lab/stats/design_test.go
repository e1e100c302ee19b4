package stats_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
	"github.com/pgrst-lab/pgrst-lab/lab/stats/statstest"
)

func TestSignedRankKnownValues(t *testing.T) {
	// Hollander & Wolfe (1973), depression scale before/after: V = 40,
	// exact two-sided p = 0.03906 (R: wilcox.test(x, y, paired = TRUE)).
	x := []float64{1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30}
	y := []float64{0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29}
	d := make([]float64, len(x))
	for i := range x {
		d[i] = x[i] - y[i]
	}
	if p := stats.SignedRankP(d); math.Abs(p-0.03906) > 1e-4 {
		t.Errorf("Hollander-Wolfe: p = %.5f, want 0.03906", p)
	}
	if p := stats.SignedRankP([]float64{1, 2, 3, 4, 5}); math.Abs(p-2.0/32) > 1e-12 {
		t.Errorf("5 positive differences: p = %v, want 2/32", p)
	}
	if p := stats.SignedRankP([]float64{-1, 1, -2, 2}); p != 1 {
		t.Errorf("symmetric differences: p = %v, want 1", p)
	}
	if p := stats.SignedRankP([]float64{0, 0}); p != 1 {
		t.Errorf("all zero: p = %v, want 1", p)
	}
	// Ties get mid-ranks: {1, 1, 1, -1} has W+ = 7.5 of 10; exactly
	// 10/16 of the sign patterns are as extreme.
	if p := stats.SignedRankP([]float64{1, 1, 1, -1}); math.Abs(p-10.0/16) > 1e-12 {
		t.Errorf("ties: p = %v, want 0.625", p)
	}
	// Exact and normal approximation agree at n = 50 vs 51 on similar data.
	rng := rand.New(rand.NewPCG(1, 2))
	var a []float64
	for range 51 {
		a = append(a, 0.3+rng.NormFloat64())
	}
	pe, pn := stats.SignedRankP(a[:50]), stats.SignedRankP(a)
	if pe > 0.2 || pn > 0.2 || math.Abs(math.Log(pe/pn)) > 1.5 {
		t.Errorf("exact n=50 p=%.4g vs normal n=51 p=%.4g: far apart", pe, pn)
	}
}

// The group-sequential boundaries spend alpha as designed: a Monte Carlo
// of the standardised statistic under H0 crosses them with probability
// alpha in total, and the first boundary matches the spending function.
func TestBoundariesSpendAlpha(t *testing.T) {
	looks := []int{5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20}
	c := stats.Boundaries(looks, 0.05)
	for k := 1; k < len(c); k++ {
		if c[k] >= c[k-1] {
			t.Fatalf("boundaries not decreasing: %v", c)
		}
	}
	if c[len(c)-1] <= 1.96 || c[len(c)-1] > 2.3 {
		t.Errorf("last boundary %.3f, want a little above 1.96", c[len(c)-1])
	}
	first := 2 * (1 - normCDF(c[0]))
	if want := stats.OBFSpending(0.05, 5.0/20); math.Abs(first-want) > 1e-6 {
		t.Errorf("first look spends %.3g, want %.3g", first, want)
	}
	rng := rand.New(rand.NewPCG(7, 7))
	const sims = 100000
	cross := 0
	for range sims {
		s := 0.0
		n := 0
		for k, nk := range looks {
			for ; n < nk; n++ {
				s += rng.NormFloat64()
			}
			if math.Abs(s)/math.Sqrt(float64(nk)) >= c[k] {
				cross++
				break
			}
		}
	}
	rate := float64(cross) / sims
	t.Logf("boundaries %.3f; Monte Carlo crossing rate %.4f", c, rate)
	if math.Abs(rate-0.05) > 0.003 {
		t.Errorf("crossing rate %.4f, want 0.05 ± 0.003", rate)
	}
	d := stats.Design{Min: 10, Max: 10, Alpha: 0.05, Sequential: true}
	if a := d.NominalAlpha(10); a != 0.05 {
		t.Errorf("fixed design: nominal alpha %v, want 0.05", a)
	}
}

func normCDF(z float64) float64 { return 0.5 * math.Erfc(-z/math.Sqrt2) }

// realistic is the noise of this kind of machine: 5 % per trial and an 8 %
// drift per round shared by the variants (the notes saw ~12 % between
// rounds and per-round ratios of 0.89..1.14).
func realistic(rate float64, rounds int, seed uint64) *lab.Run {
	run := statstest.Run(statstest.Spec{
		Experiment: "aa", Scenarios: []string{"GETSingle"}, Trials: rounds, Noise: 0.05, Drift: 0.08, Seed: seed,
		Variants: []statstest.Variant{
			{Name: "a", Baseline: true, Rate: 2400, P50Ms: 4, ServerUs: 450, DBUs: 330, RSSMB: 60},
			{Name: "b", Rate: rate, P50Ms: 4 * 2400 / rate, ServerUs: 450 * 2400 / rate, DBUs: 330 * 2400 / rate, RSSMB: 60},
		},
	})
	return run
}

// adaptive runs the stopping rule over a full synthetic run as the run
// loop would: look after every round from min, stop when decided. It
// returns the headline at the stop and the rounds used.
func adaptive(full *lab.Run, minR, maxR int, tr lab.Trials) (stats.Row, int) {
	tr.Min, tr.Max = minR, maxR
	full.Experiment.Trials = tr
	for k := minR; ; k++ {
		run := *full
		run.Trials = nil
		for _, t := range full.Trials {
			if t.Rep <= k {
				run.Trials = append(run.Trials, t)
			}
		}
		if k == maxR || stats.Decided(&run, 0) {
			return stats.Compare(&run, 0).Headlines()[0], k
		}
	}
}

func seqTrials(analysis lab.Analysis, sequential bool) lab.Trials {
	return lab.Trials{Alpha: 0.05, Analysis: analysis, Sequential: &sequential, Order: lab.OrderInterleaved}
}

// Over 2000 A/A runs with adaptive stopping on (looks after every round
// from 5 to 20), the sequential design keeps the false-positive rate at or
// below alpha; the naive look-after-every-round rule does not.
func TestSequentialAAFalsePositiveRate(t *testing.T) {
	runs := 2000
	if testing.Short() {
		runs = 400
	}
	fp, naive, naiveRuns, rounds := 0, 0, 0, 0
	for seed := uint64(1); seed <= uint64(runs); seed++ {
		full := realistic(2400, 20, seed)
		r, k := adaptive(full, 5, 20, seqTrials("", true))
		rounds += k
		if r.Significant {
			fp++
		}
		if seed <= 500 {
			naiveRuns++
			if r, _ := adaptive(full, 5, 20, seqTrials("", false)); r.Significant {
				naive++
			}
		}
	}
	rate := float64(fp) / float64(runs)
	naiveRate := float64(naive) / float64(naiveRuns)
	t.Logf("A/A, looks 5..20: sequential false positives %d of %d (%.2f%%), mean %.1f rounds; naive rule %d of %d (%.1f%%)",
		fp, runs, 100*rate, float64(rounds)/float64(runs), naive, naiveRuns, 100*naiveRate)
	if rate > 0.05 {
		t.Errorf("sequential false-positive rate %.2f%%, want <= 5%%", 100*rate)
	}
	if naiveRate <= 0.06 {
		t.Errorf("naive rule false-positive rate %.1f%%: expected it above alpha (the reason for the sequential design)", 100*naiveRate)
	}
}

// Under a real 7 % effect the sequential design still stops early, and
// detects it in most runs; the paired test beats the unpaired one when the
// rounds drift.
func TestSequentialStopsEarlyUnderEffect(t *testing.T) {
	const runs = 300
	var det, detU, rounds int
	for seed := uint64(1); seed <= runs; seed++ {
		full := realistic(2400*1.07, 20, 5000+seed)
		r, k := adaptive(full, 5, 20, seqTrials("", true))
		rounds += k
		if r.Significant && r.Outcome == stats.Better && r.Test == stats.TestSignedRank {
			det++
		}
		if r, _ := adaptive(full, 5, 20, seqTrials(stats.AnalysisUnpaired, true)); r.Significant && r.Outcome == stats.Better {
			detU++
		}
	}
	mean := float64(rounds) / runs
	t.Logf("+7%% effect, looks 5..20: paired detected %d of %d (%.0f%%), mean %.1f rounds; unpaired %d (%.0f%%)",
		det, runs, 100*float64(det)/runs, mean, detU, 100*float64(detU)/runs)
	if det < runs*80/100 {
		t.Errorf("paired power %d/%d, want >= 80%%", det, runs)
	}
	if mean > 15 {
		t.Errorf("mean %.1f rounds, want an early stop (< 15 of 20)", mean)
	}
	if detU >= det {
		t.Errorf("unpaired detected %d >= paired %d under round drift", detU, det)
	}
}

// The minimum detectable effect a row reports is what it says: an effect
// of that size, with the same noise and trials, is detected in about 80 %
// of runs, and a row's MDE follows its own noise.
func TestMDEIsCalibrated(t *testing.T) {
	const n, runs = 10, 400
	var mdes []float64
	for seed := uint64(1); seed <= 40; seed++ {
		r := stats.Compare(realistic(2400, n, 9000+seed), 0.05).Headlines()[0]
		mdes = append(mdes, r.MDEPct)
	}
	mde := stats.Median(mdes)
	det := 0
	for seed := uint64(1); seed <= runs; seed++ {
		r := stats.Compare(realistic(2400*(1+mde/100), n, 20000+seed), 0.05).Headlines()[0]
		if r.Significant && r.Outcome == stats.Better {
			det++
		}
	}
	power := float64(det) / runs
	t.Logf("median MDE of A/A rows (n=%d, noise 5%% + drift 8%%): ±%.2f%%; an effect of that size detected in %.0f%%", n, mde, 100*power)
	if power < 0.65 || power > 0.93 {
		t.Errorf("power at the reported MDE %.0f%%, want about 80%%", 100*power)
	}
	quiet := stats.Compare(tcpUnix(2400, n, 0.01, 3), 0.05).Headlines()[0]
	if !(quiet.MDEPct < mde/2) || quiet.MDEString() == "?" {
		t.Errorf("1%% noise: MDE %s, want well below %.1f%%", quiet.MDEString(), mde)
	}
	for _, n := range []int{1, 2} {
		if r := stats.Compare(tcpUnix(2400, n, 0.01, 3), 0.05).Headlines()[0]; r.MDEString() != "?" {
			t.Errorf("%d trial(s): MDE %s, want ?", n, r.MDEString())
		}
	}
	// No errors on either side: no relative change, so no MDE to state.
	found := false
	for _, r := range stats.Compare(tcpUnix(2400, n, 0.01, 3), 0.05).Rows {
		if r.Metric.Name != "errors" {
			continue
		}
		found = true
		if r.MDEString() != "—" || !strings.Contains(r.MDESentence(), "zero") {
			t.Errorf("errors 0 vs 0: MDE %s (%s), want — and a sentence about zero", r.MDEString(), r.MDESentence())
		}
	}
	if !found {
		t.Error("no errors row to check")
	}
}

func TestPlanRounds(t *testing.T) {
	d := stats.Design{Min: 5, Max: 20, Alpha: 0.05, Sequential: true}
	n3, ok := stats.PlanRounds(d, 0.05, 3, true, 200)
	n6, ok6 := stats.PlanRounds(d, 0.05, 6, true, 200)
	if !ok || !ok6 || n6 >= n3 || n6 < 4 {
		t.Errorf("5%% noise: 3%% needs %d (%v), 6%% needs %d (%v); want more rounds for the smaller effect", n3, ok, n6, ok6)
	}
	// The planned rounds reach the effect; one fewer does not.
	if m := stats.MDEPct(0.05, n3, d.NominalAlpha(n3), true); m > 3 {
		t.Errorf("MDE at the planned %d rounds %.2f%% > 3%%", n3, m)
	}
	if _, ok := stats.PlanRounds(d, 0.5, 0.5, true, 50); ok {
		t.Error("50% noise, 0.5% effect within 50 rounds: want not ok")
	}
	t.Logf("5%% noise: 3%% needs %d rounds, 6%% needs %d", n3, n6)
}

// NoiseOf recovers the synthetic noise: per-round ratios of two values
// with 4 % noise each vary by about 4 % × √2, whatever the round drift;
// unpaired, the drift adds to it.
func TestNoiseOf(t *testing.T) {
	run := statstest.Run(statstest.Spec{Experiment: "n", Scenarios: []string{"GETSingle"}, Trials: 40, Noise: 0.04, Drift: 0.10, Seed: 5,
		Variants: []statstest.Variant{{Name: "a", Baseline: true, Rate: 1000}, {Name: "b", Rate: 1000}}})
	nz, ok := stats.NoiseOf(run, stats.AnalysisAuto)
	if !ok || !nz.Paired || nz.N != 40 || math.Abs(nz.SD-0.04*math.Sqrt2) > 0.015 {
		t.Errorf("paired noise %+v, want SD ≈ %.3f from 40 pairs", nz, 0.04*math.Sqrt2)
	}
	un, _ := stats.NoiseOf(run, stats.AnalysisUnpaired)
	if un.Paired || un.SD < 0.08 {
		t.Errorf("unpaired noise %+v, want >= 0.08 (drift 10%% included)", un)
	}
	p := stats.PlanFor(&run.Experiment, nz, 3)
	if !p.OK || p.Trials != 2*p.Rounds || p.Duration <= 0 {
		t.Errorf("plan %+v", p)
	}
}

// In efficiency mode the verdict is about server + database CPU per
// request: a variant 5 % cheaper is "better" even at equal throughput.
func TestEfficiencyHeadlineIsCPU(t *testing.T) {
	run := statstest.Run(statstest.Spec{Experiment: "e", Scenarios: []string{"GETSingle"}, Trials: 8, Noise: 0.01, Seed: 4,
		Variants: []statstest.Variant{
			{Name: "a", Baseline: true, Rate: 1500, P50Ms: 2, ServerUs: 400, DBUs: 300},
			{Name: "b", Rate: 1500, P50Ms: 2, ServerUs: 380, DBUs: 285},
		}})
	run.Experiment.Load.Model = lab.ModelEfficiency
	v := stats.Compare(run, 0.05)
	h := v.Headlines()
	if len(h) != 1 || h[0].Metric.Name != "cpu" || h[0].Outcome != stats.Better || math.Abs(h[0].DeltaPct+5) > 1.5 {
		t.Fatalf("headline %+v, want cpu better by ~5%%", h)
	}
	if !stats.Decided(run, 0.05) {
		t.Error("a clear 5% CPU drop over 8 rounds: not decided")
	}
}

// A round left out whole (e.g. for interference) keeps the analysis
// paired and does not count as a look.
func TestRoundLeftOutWhole(t *testing.T) {
	run := realistic(2400*1.1, 8, 77)
	for i := range run.Trials {
		if run.Trials[i].Rep == 3 {
			run.Trials[i].Error = "interference: other work used more than 20% of the machine's CPUs in round 3"
		}
	}
	if n := stats.Rounds(run); n != 7 {
		t.Errorf("Rounds = %d, want 7", n)
	}
	r := stats.Compare(run, 0.05).Headlines()[0]
	if r.Test != stats.TestSignedRank || r.Paired.N != 7 {
		t.Errorf("test %q with %v pairs, want paired with 7", r.Test, r.Paired)
	}
}

// Disturbed trials kept for want of clean rounds carry a warning.
func TestKeptDisturbedTrialsWarn(t *testing.T) {
	run := realistic(2400, 6, 78)
	run.Trials[2].Interference = &lab.Interference{Other: 1, Share: 0.5, Flagged: true}
	r := stats.Compare(run, 0.05).Headlines()[0]
	found := false
	for _, w := range r.Warnings {
		found = found || strings.Contains(w, "measured while other work used more than the limit")
	}
	if !found {
		t.Errorf("warnings %q lack the disturbed-trial warning", r.Warnings)
	}
}
