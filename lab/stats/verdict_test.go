package stats_test

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
	"github.com/pgrst-lab/pgrst-lab/lab/stats/statstest"
)

// tcpUnix is a run of two variants; unixRate 2400 makes throughput equal.
func tcpUnix(unixRate float64, n int, noise float64, seed uint64) *lab.Run {
	return statstest.Run(statstest.Spec{
		Experiment: "socket-vs-tcp", Scenarios: []string{"GETSingle"}, Trials: n, Noise: noise, Seed: seed,
		Variants: []statstest.Variant{
			{Name: "tcp", Baseline: true, Rate: 2400, P50Ms: 4, ServerUs: 450, DBUs: 330, RSSMB: 60},
			{Name: "unix", Rate: unixRate, P50Ms: 4 * 2400 / unixRate, ServerUs: 450 * 2400 / unixRate, DBUs: 330 * 2400 / unixRate, RSSMB: 60},
		},
	})
}

func row(t *testing.T, v *stats.Verdicts, scenario, variant, metric string) stats.Row {
	t.Helper()
	for _, r := range v.For(scenario, variant) {
		if r.Metric.Name == metric {
			return r
		}
	}
	t.Fatalf("no row for %s/%s/%s in %d rows", scenario, variant, metric, len(v.Rows))
	return stats.Row{}
}

func TestClearDifferenceIsSignificantWithRightSign(t *testing.T) {
	v := stats.Compare(tcpUnix(2600, 10, 0.02, 1), 0.05)
	if v.Baseline != "tcp" || len(v.Variants) != 1 || v.Variants[0] != "unix" {
		t.Fatalf("baseline %q variants %v", v.Baseline, v.Variants)
	}
	r := row(t, v, "GETSingle", "unix", "rate")
	if !r.Significant || r.Outcome != stats.Better || r.DeltaPct < 5 || r.DeltaPct > 12 {
		t.Errorf("throughput: significant=%v outcome=%v delta=%.2f%% p=%.4f, want significant better ≈ +8%%", r.Significant, r.Outcome, r.DeltaPct, r.P)
	}
	if !strings.HasPrefix(r.Delta(), "+") {
		t.Errorf("Delta() = %q, want +x.xx%%", r.Delta())
	}
	if r.Baseline.N != 10 || r.Variant.N != 10 || !(r.Baseline.Lo <= r.Baseline.Median && r.Baseline.Median <= r.Baseline.Hi) {
		t.Errorf("baseline summary %+v", r.Baseline)
	}
	// Lower latency and CPU per request are improvements; the row says so.
	for _, m := range []string{"p50", "server_cpu", "db_cpu"} {
		if r := row(t, v, "GETSingle", "unix", m); r.Outcome != stats.Better || r.DeltaPct >= 0 {
			t.Errorf("%s: outcome %v delta %.2f%%, want better and negative", m, r.Outcome, r.DeltaPct)
		}
	}
	// The same numbers the other way round are worse.
	v = stats.Compare(tcpUnix(2200, 10, 0.02, 1), 0.05)
	if r := row(t, v, "GETSingle", "unix", "rate"); r.Outcome != stats.Worse || r.DeltaPct > -5 {
		t.Errorf("slower variant: outcome %v delta %.2f%%, want worse", r.Outcome, r.DeltaPct)
	}
	if r := row(t, v, "GETSingle", "unix", "p50"); r.Outcome != stats.Worse {
		t.Errorf("higher latency: outcome %v, want worse", r.Outcome)
	}
}

func TestIdenticalDistributionsAreSame(t *testing.T) {
	v0 := statstest.Variant{Name: "a", Baseline: true, Rate: 2400, P50Ms: 4, ServerUs: 450, DBUs: 330, RSSMB: 60}
	v1 := v0
	v1.Name, v1.Baseline = "b", false
	run := statstest.Run(statstest.Spec{Experiment: "aa", Scenarios: []string{"GETSingle"}, Trials: 8,
		Variants: []statstest.Variant{v0, v1}}) // no noise: every value equal
	v := stats.Compare(run, 0.05)
	for _, r := range v.Rows {
		if r.Significant || r.Delta() != "~" || r.Outcome != stats.Same || r.P != 1 {
			t.Errorf("%s: significant=%v delta=%q p=%v, want ~", r.Metric.Name, r.Significant, r.Delta(), r.P)
		}
		if r.Metric.Name == "peak_rss" || r.Metric.Name == "rate" {
			for _, w := range r.Warnings {
				t.Errorf("%s: unexpected warning %q", r.Metric.Name, w)
			}
		}
	}
}

// An A/A run (the same configuration twice) must come out "no difference".
func TestAAComesOutSame(t *testing.T) {
	same := 0
	for seed := uint64(1); seed <= 20; seed++ {
		r := row(t, stats.Compare(tcpUnix(2400, 10, 0.04, seed), 0.05), "GETSingle", "unix", "rate")
		if r.Delta() == "~" {
			same++
		}
	}
	if same < 19 {
		t.Errorf("A/A: %d of 20 runs came out ~, want >= 19", same)
	}
	t.Logf("A/A: %d of 20 runs ~", same)
}

// Over many A/A runs the false-positive rate of the headline stays near alpha.
func TestAAFalsePositiveRate(t *testing.T) {
	const runs = 400
	fp := 0
	for seed := uint64(1000); seed < 1000+runs; seed++ {
		r := row(t, stats.Compare(tcpUnix(2400, 8, 0.05, seed), 0.05), "GETSingle", "unix", "rate")
		if r.Significant {
			fp++
		}
	}
	rate := float64(fp) / runs
	t.Logf("A/A false positives: %d of %d (%.1f%%)", fp, runs, 100*rate)
	if rate > 0.08 {
		t.Errorf("A/A false-positive rate %.1f%%, want <= 8%% at alpha 5%%", 100*rate)
	}
}

func TestTooFewTrialsWarns(t *testing.T) {
	v := stats.Compare(tcpUnix(3000, 3, 0.01, 5), 0.05) // +25%, but 3 trials each
	r := row(t, v, "GETSingle", "unix", "rate")
	if r.Significant {
		t.Errorf("3+3 trials cannot be significant at 0.05 (Mann-Whitney minimum p is 0.1), got p=%v", r.P)
	}
	if !hasWarning(r, "paired: need >= 6 pairs to detect a difference at p <= 0.05") {
		t.Errorf("warnings %q lack the too-few-pairs warning", r.Warnings)
	}
	// The unpaired test says so in benchmath's words.
	run := tcpUnix(3000, 3, 0.01, 5)
	run.Experiment.Trials.Analysis = stats.AnalysisUnpaired
	if r := row(t, stats.Compare(run, 0.05), "GETSingle", "unix", "rate"); r.Test != stats.TestMannWhitney ||
		!hasWarning(r, "need >= 4 samples to detect a difference at alpha level 0.05") {
		t.Errorf("unpaired: test %q, warnings %q lack benchmath's too-few-samples warning", r.Test, r.Warnings)
	}
	if !hasWarning(r, "samples for confidence interval") {
		t.Errorf("warnings %q lack the confidence-interval warning", r.Warnings)
	}
	if !math.IsInf(r.Baseline.Lo, -1) || r.Baseline.Bounded() {
		t.Errorf("3 values: interval %v..%v, want unbounded", r.Baseline.Lo, r.Baseline.Hi)
	}
}

func TestHighNoiseWarns(t *testing.T) {
	r := row(t, stats.Compare(tcpUnix(2400, 10, 0.3, 7), 0.05), "GETSingle", "unix", "rate")
	if !hasWarning(r, "throughput is noisy") {
		t.Errorf("30%% noise: warnings %q, want a noise warning", r.Warnings)
	}
	if len(r.Noise) == 0 || !(r.Baseline.Noisy() || r.Variant.Noisy()) {
		t.Errorf("30%% noise: Noise %q, want the noise warnings apart and a noisy summary", r.Noise)
	}
	for _, w := range r.OtherWarnings() {
		if strings.Contains(w, "noisy") {
			t.Errorf("OtherWarnings keeps a noise warning: %q", w)
		}
	}
	r = row(t, stats.Compare(tcpUnix(2400, 10, 0.01, 7), 0.05), "GETSingle", "unix", "rate")
	if hasWarning(r, "noisy") {
		t.Errorf("1%% noise: unexpected noise warning in %q", r.Warnings)
	}
}

func TestEventsAndFailedTrialsWarn(t *testing.T) {
	run := tcpUnix(2600, 6, 0.02, 9)
	var unixSeqs []int
	for i := range run.Trials {
		if run.Trials[i].Variant == "unix" {
			unixSeqs = append(unixSeqs, run.Trials[i].Seq)
		}
	}
	run.Events = append(run.Events, lab.Event{T: statstest.Start.Add(time.Minute), Kind: "oom-kill", Source: "postgrest", Variant: "unix", Trial: unixSeqs[1]})
	for i := range run.Trials {
		switch run.Trials[i].Seq {
		case unixSeqs[2]:
			run.Trials[i].Error = "not ready after 30s"
		case unixSeqs[3]:
			run.Trials[i].Load.Errors = 12
		}
	}
	r := row(t, stats.Compare(run, 0.05), "GETSingle", "unix", "rate")
	if r.Variant.N != 5 || r.Baseline.N != 6 {
		t.Errorf("n = %d+%d, want 6+5 (the failed trial left out)", r.Baseline.N, r.Variant.N)
	}
	for _, want := range []string{"oom-kill ×1", "1 failed trial(s) left out", "not ready after 30s", "12 request error(s)"} {
		if !hasWarning(r, want) {
			t.Errorf("warnings %q lack %q", r.Warnings, want)
		}
	}
	if rows := stats.Compare(run, 0.05).For("GETSingle", "tcp"); len(rows) != 0 {
		t.Errorf("baseline compared with itself: %d rows", len(rows))
	}
}

func TestDecided(t *testing.T) {
	if !stats.Decided(tcpUnix(2600, 8, 0.02, 11), 0.05) {
		t.Error("clear +8% with 8 trials: not decided")
	}
	if stats.Decided(tcpUnix(2400, 3, 0.04, 11), 0.05) {
		t.Error("A/A with 3 trials: decided, want more trials")
	}
	// Same distribution, tiny noise, many trials: the change is within ±1%.
	if !stats.Decided(tcpUnix(2400, 12, 0.001, 11), 0.05) {
		t.Error("A/A with 0.1% noise and 12 trials: not decided, want within ±1%")
	}
	if stats.Decided(&lab.Run{}, 0.05) {
		t.Error("empty run decided")
	}
}

func TestCompareRuns(t *testing.T) {
	a := tcpUnix(2600, 6, 0.02, 21)
	b := tcpUnix(2600, 6, 0.02, 22)
	for i := range b.Trials { // build B is 10% faster on every variant
		b.Trials[i].Load.Rate *= 1.1
	}
	v := stats.CompareRuns(a, b, "A", "B", 0.05)
	if len(v.Variants) != 2 || v.Variants[0] != "tcp (B)" {
		t.Fatalf("variants %v", v.Variants)
	}
	r := row(t, v, "GETSingle", "unix (B)", "rate")
	if r.BaselineName != "unix (A)" || r.Outcome != stats.Better || math.Abs(r.DeltaPct-10) > 4 {
		t.Errorf("row %s vs %s: %v %.1f%%", r.VariantName, r.BaselineName, r.Outcome, r.DeltaPct)
	}
}

func TestAlphaFromExperiment(t *testing.T) {
	run := tcpUnix(2600, 6, 0.02, 1)
	run.Experiment.Trials.Alpha = 0.01
	if v := stats.Compare(run, 0); v.Alpha != 0.01 {
		t.Errorf("alpha %v, want the experiment's 0.01", v.Alpha)
	}
}

func hasWarning(r stats.Row, sub string) bool {
	for _, w := range r.Warnings {
		if strings.Contains(w, sub) {
			return true
		}
	}
	return false
}

// A calibration states the design, not one run's look: DesignMethod gives
// the first and last looks' thresholds, Method the look the run stopped at.
func TestDesignMethodStatesTheLooks(t *testing.T) {
	d := stats.Design{Min: 6, Max: 24, Alpha: 0.05, Sequential: true}
	v := &stats.Verdicts{Alpha: 0.05, Rounds: 9, Design: d}
	got := v.DesignMethod()
	want := fmt.Sprintf("the first look significant at p <= %.2g, the last at p <= %.3g", d.NominalAlpha(6), d.NominalAlpha(24))
	if !strings.Contains(got, want) || strings.Contains(got, "look after 9") {
		t.Errorf("DesignMethod: %s\nwant it to contain %q and not this run's look", got, want)
	}
	if m := v.Method(); !strings.Contains(m, "look after 9 rounds") {
		t.Errorf("Method: %s", m)
	}
	if last := d.NominalAlpha(24); !(last > 0.02 && last < 0.05) {
		t.Errorf("last look's threshold %.4f, want a little under alpha", last)
	}
}

// A paired row shows the change its test estimates, the median per-round
// change, so the figure never contradicts the verdict even where the two
// medians point elsewhere (here +108 % while every round but one lost 2 %).
func TestPairedDeltaIsThePerRoundChange(t *testing.T) {
	run := tcpUnix(2400, 5, 0, 1)
	base := map[int]float64{1: 100, 2: 110, 3: 120, 4: 300, 5: 310}
	vari := map[int]float64{1: 98, 2: 107.8, 3: 250, 4: 294, 5: 303.8}
	for i, tr := range run.Trials {
		if tr.Variant == "tcp" {
			run.Trials[i].Load.Rate = base[tr.Rep]
		} else {
			run.Trials[i].Load.Rate = vari[tr.Rep]
		}
	}
	r := row(t, stats.Compare(run, 0.05), "GETSingle", "unix", "rate")
	if r.Test != stats.TestSignedRank || r.Paired == nil {
		t.Fatalf("test %q, want the paired test", r.Test)
	}
	if math.Abs(r.DeltaPct-(-2)) > 0.01 || r.DeltaPct != r.Paired.ChangePct {
		t.Errorf("delta %.2f%% (paired %.2f%%), want the median per-round change -2%%; medians %.0f -> %.0f", r.DeltaPct, r.Paired.ChangePct, r.Baseline.Median, r.Variant.Median)
	}
}

// A metric only the variant's version reports (the JWT cache's, from
// PostgREST 14.0) says the baseline did not measure it, not that the
// baseline had no valid trials.
func TestMetricOneSideDidNotMeasure(t *testing.T) {
	run := statstest.Run(statstest.Spec{Experiment: "versions", Scenarios: []string{"GETSingle"}, Trials: 6, Noise: 0.01, Seed: 2,
		Variants: []statstest.Variant{{Name: "v13", Baseline: true, Rate: 1000, P50Ms: 2}, {Name: "v14", Rate: 1000, P50Ms: 2}}})
	for i := range run.Trials {
		if tr := &run.Trials[i]; tr.Variant == "v14" {
			tr.DB.JWTCache = &lab.JWTCacheStats{Requests: 100, Hits: 99}
		}
	}
	var warnings []string
	for _, r := range stats.Compare(run, 0).Rows {
		warnings = append(warnings, r.Warnings...)
	}
	all := strings.Join(warnings, "\n")
	if !strings.Contains(all, "v13: no trial measured JWT cache hits") || strings.Contains(all, "no valid trials") {
		t.Errorf("warnings:\n%s", all)
	}
}
