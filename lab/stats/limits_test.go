package stats

import (
	"math"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// limitsRun is a search run of one variant: GETSingle three times,
// GETSingleEmbed three times of which one crashed.
func limitsRun() *lab.Run {
	run := &lab.Run{Experiment: lab.Experiment{Load: lab.Load{Model: lab.ModelSearch},
		Scenarios: []string{"GETSingle", "GETSingleEmbed"}, Variants: []lab.Variant{{Name: "v13", Baseline: true}}}}
	add := func(sc string, rate float64, rss uint64, errMsg string, cpu float64) {
		t := lab.Trial{Variant: "v13", Scenario: sc, Error: errMsg, Server: lab.Usage{PeakRSS: rss, CPUPerRequestUs: cpu},
			Database: lab.Usage{CPUPerRequestUs: cpu / 2}}
		if errMsg == "" {
			t.Load = lab.LoadStats{Model: lab.ModelSearch, Requests: int64(rate * 2), Rate: rate, MaxInFlight: 100,
				LatencyMs: lab.Percentiles{P50: 1000 / rate}}
		}
		run.Trials = append(run.Trials, t)
	}
	add("GETSingle", 1000, 60<<20, "", 300)
	add("GETSingle", 1200, 70<<20, "", 280)
	add("GETSingle", 1100, 65<<20, "", 290)
	add("GETSingleEmbed", 500, 90<<20, "", 600)
	add("GETSingleEmbed", 0, 150<<20, "crashed: Heap exhausted", 0)
	add("GETSingleEmbed", 400, 80<<20, "", 700)
	return run
}

func TestLimitsPerScenario(t *testing.T) {
	rows := Limits(limitsRun())
	if len(rows) != 2 {
		t.Fatalf("rows: %+v", rows)
	}
	single, embed := rows[0], rows[1]
	if single.Rate.Median != 1100 || single.Min != 1000 || single.Max != 1200 || single.Rate.Bounded() {
		t.Errorf("GETSingle rate %+v range %v-%v, want median 1100, range 1000-1200, no interval from 3 trials", single.Rate, single.Min, single.Max)
	}
	if single.At.Rate != 1100 {
		t.Errorf("the k6 columns come from the trial at %v, want the median trial (1100)", single.At.Rate)
	}
	if single.PeakRSS != 70<<20 || embed.PeakRSS != 150<<20 {
		t.Errorf("peak RSS %d, %d: want each scenario's own highest (70 MiB, 150 MiB)", single.PeakRSS>>20, embed.PeakRSS>>20)
	}
	if embed.Trials != 3 || embed.Failed != 1 || embed.Why != "crashed: Heap exhausted" {
		t.Errorf("GETSingleEmbed: %d trials, %d failed (%q), want 3, 1, the crash", embed.Trials, embed.Failed, embed.Why)
	}
	if embed.Rate.Median != 450 || embed.Rate.N != 2 {
		t.Errorf("GETSingleEmbed rate %+v: a crashed trial must not count", embed.Rate)
	}
	if math.Abs(embed.Ratio-450.0/1100) > 1e-9 || single.Ratio != 1 {
		t.Errorf("ratios %v, %v", single.Ratio, embed.Ratio)
	}
	if math.Abs(embed.Ratio2020-804.99/2067.95) > 1e-9 {
		t.Errorf("2020 ratio %v", embed.Ratio2020)
	}
	run := limitsRun()
	run.Host = lab.Host{CPUs: 2, MemoryBytes: 1 << 30}
	run.Experiment.Cost = lab.Cost{Hour: 0.0047}
	if got := Limits(run)[0].PerMillion; math.Abs(got-0.0047/(1100*3600)*1e6) > 1e-12 {
		t.Errorf("cost per million %v", got)
	}
	if !math.IsNaN(single.PerMillion) {
		t.Errorf("cost per million without prices: %v", single.PerMillion)
	}
	if single.ServerUs != 290 || single.DBUs != 145 {
		t.Errorf("CPU per request %v / %v, want medians 290 / 145", single.ServerUs, single.DBUs)
	}
}

func TestLimitsOnlyForSearchRuns(t *testing.T) {
	run := limitsRun()
	run.Experiment.Load.Model = lab.ModelClosed
	if rows := Limits(run); rows != nil {
		t.Errorf("a closed-model run has a limits table: %+v", rows)
	}
}

func TestLimitsAllFailed(t *testing.T) {
	run := &lab.Run{Experiment: lab.Experiment{Load: lab.Load{Model: lab.ModelSearch}, Scenarios: []string{"GETAllEmbed"}}}
	run.Trials = []lab.Trial{{Variant: "a", Scenario: "GETAllEmbed", Error: "crashed: killed by the kernel (OOM)"}}
	rows := Limits(run)
	if len(rows) != 1 || rows[0].Rate.N != 0 || !math.IsNaN(rows[0].Rate.Median) || rows[0].Failed != 1 {
		t.Errorf("all failed: %+v, want a row with no rate", rows)
	}
}

// sustainedRun is a sustained limits run of one scenario whose trials
// held the given rates; a 0 is a round left out for interference.
func sustainedRun(rates ...float64) *lab.Run {
	run := &lab.Run{Experiment: lab.Experiment{Load: lab.Load{Model: lab.ModelSearch, Limit: lab.Limit{Hold: 10e9}},
		Trials: lab.Trials{Min: 3, Max: 8}, Scenarios: []string{"GETSingle"}, Variants: []lab.Variant{{Name: "v", Baseline: true}}}}
	for i, r := range rates {
		t := lab.Trial{Variant: "v", Scenario: "GETSingle", Rep: i + 1}
		if r == 0 {
			t.Error = "interference: other work used more than 20% of the machine's CPUs in round 2"
		} else {
			t.Load = lab.LoadStats{Model: lab.ModelSearch, Requests: int64(10 * r), Rate: 0.995 * r, AskedRate: r}
			t.Curve = []lab.CurvePoint{{Kind: "closed", Connections: 8, Rate: 1.02 * r, OK: true}, {Kind: "hold", AskedRate: r, Rate: 0.995 * r, OK: true},
				{Kind: "at", Share: 0.5, AskedRate: r / 2, P95Ms: 2}, {Kind: "at", Share: 0.8, AskedRate: 0.8 * r, P95Ms: 4}}
		}
		run.Trials = append(run.Trials, t)
	}
	return run
}

// Issue 53: a sustained limit is the offered rate held, with a 95 %
// interval (Student's t over the trials); the run is decided once every
// scenario's interval is within ±5 % with trials.min valid trials. A round
// left out for interference does not count, so the run measures again.
func TestSustainedLimitsStopWhenPrecise(t *testing.T) {
	r := Limits(sustainedRun(1000, 1010, 990))[0]
	if !r.Sustained || r.Rate.Median != 1000 || math.Abs(r.Mean-1000) > 1e-9 || !r.Precise {
		t.Fatalf("row %+v: want the held rates' median 1000, mean 1000, precise", r)
	}
	if want := tQuantile(2, 0.975) * 10 / math.Sqrt(3); math.Abs(r.HalfWidth-want) > 1e-9 {
		t.Errorf("half-width %v, want %v", r.HalfWidth, want)
	}
	if r.Closed != 1020 || r.ClosedConns != 8 || len(r.AtShares) != 2 || r.AtShares[1].Share != 0.8 {
		t.Errorf("closed-loop %v at %d, at shares %+v", r.Closed, r.ClosedConns, r.AtShares)
	}
	for _, c := range []struct {
		rates []float64
		want  bool
	}{
		{[]float64{1000, 1010, 990}, true},
		{[]float64{800, 1000, 1200}, false},            // ±50 %: more rounds
		{[]float64{1000, 0, 1010}, false},              // two valid of three needed
		{[]float64{1000, 0, 1010, 990}, true},          // measured again
		{[]float64{1000, 1010}, false},                 // under trials.min
		{[]float64{900, 1100, 1000, 950, 1050}, false}, // ±9.8 %
	} {
		run := sustainedRun(c.rates...)
		if got := LimitsPrecise(run); got != c.want {
			t.Errorf("rates %v: precise %v, want %v", c.rates, got, c.want)
		}
		if got := Decided(run, 0); got != c.want {
			t.Errorf("rates %v: decided %v, want %v", c.rates, got, c.want)
		}
	}
}

// --strict's reasons: imprecise limits and kept disturbed trials.
func TestUnreliable(t *testing.T) {
	if why := Unreliable(sustainedRun(1000, 1010, 990)); why != "" {
		t.Errorf("a precise run: %q", why)
	}
	if why := Unreliable(sustainedRun(800, 1000, 1200)); !strings.Contains(why, "GETSingle (v): its limit's interval is wider than ±5% after 3 valid trial(s)") {
		t.Errorf("an imprecise run: %q", why)
	}
	run := sustainedRun(1000, 1010, 990)
	run.Trials[1].Interference = &lab.Interference{Flagged: true, Share: 0.4}
	if why := Unreliable(run); !strings.Contains(why, "1 trial(s) disturbed by other work were kept") {
		t.Errorf("a kept disturbed trial: %q", why)
	}
}

// Issue 53: a capacity sweep over CPU says whether the rate rises with
// every step, and where it does not.
func TestMonotonicScaling(t *testing.T) {
	run := &lab.Run{Experiment: lab.Experiment{Load: lab.Load{Model: lab.ModelSearch},
		Sweep: &lab.Sweep{SweepAxis: lab.SweepAxis{Key: "dropin.CPUQuota"}}}}
	pt := func(v string, rate float64) SweepPointResult {
		return SweepPointResult{Values: []string{v}, Metrics: map[string]Summary{"rate": {Median: rate, N: 3}}}
	}
	if got := Monotonic(run, []SweepPointResult{pt("25%", 300), pt("50%", 600), pt("100%", 1100)}); got != "The rate rises with every step of dropin.CPUQuota." {
		t.Errorf("rising: %q", got)
	}
	got := Monotonic(run, []SweepPointResult{pt("50%", 600), pt("100%", 1100), pt("150%", 1090)})
	if !strings.Contains(got, "does not rise") || !strings.Contains(got, "100% to 150%: 1100 → 1090 req/s") {
		t.Errorf("capped: %q", got)
	}
	// Requests per core: a quota's share of a core, a CPU list's CPUs.
	if got := PerCore(run, []SweepPointResult{pt("25%", 300), pt("50%", 600), pt("150%", 1090)}); got != " Per core: 25% 1200, 50% 1200, 150% 727 req/s." {
		t.Errorf("per core (quota): %q", got)
	}
	run.Experiment.Sweep.Key = "dropin.CPUAffinity"
	if got := PerCore(run, []SweepPointResult{pt("1", 900), pt("1-2", 1700), pt("1,3-4", 2400)}); got != " Per core: 1 900, 1-2 850, 1,3-4 800 req/s." {
		t.Errorf("per core (cores): %q", got)
	}
	run.Experiment.Sweep.Key = "postgrest.db-pool"
	if got := Monotonic(run, []SweepPointResult{pt("1", 300), pt("2", 200)}); got != "" {
		t.Errorf("not a CPU sweep: %q", got)
	}
	if got := PerCore(run, []SweepPointResult{pt("1", 300)}); got != "" {
		t.Errorf("not a CPU sweep, per core: %q", got)
	}
}

// A one-variant limits run settles a scenario once its interval is
// precise with trials.min valid trials; a comparison never does (its
// rounds stay paired), nor does a search without a hold.
func TestSettledOnlyPreciseOneVariantLimits(t *testing.T) {
	for _, c := range []struct {
		rates []float64
		want  bool
	}{
		{[]float64{1000, 1010, 990}, true},
		{[]float64{800, 1000, 1200}, false},
		{[]float64{1000, 1010}, false},
		{[]float64{1000, 0, 1010}, false},
	} {
		if got := SettledFunc(sustainedRun(c.rates...), "v", "GETSingle"); got != c.want {
			t.Errorf("rates %v: settled %v, want %v", c.rates, got, c.want)
		}
	}
	if SettledFunc(sustainedRun(1000, 1010, 990), "v", "GETAllEmbed") {
		t.Error("a scenario without trials settled")
	}
	two := sustainedRun(1000, 1010, 990)
	two.Experiment.Variants = append(two.Experiment.Variants, lab.Variant{Name: "w"})
	if SettledFunc(two, "v", "GETSingle") {
		t.Error("a comparison's scenario settled early")
	}
	open := sustainedRun(1000, 1010, 990)
	open.Experiment.Load.Limit.Hold = 0
	if SettledFunc(open, "v", "GETSingle") {
		t.Error("a search without a hold settled")
	}
}
