package bisect

import (
	"context"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/stats/statstest"
	"github.com/pgrst-lab/pgrst-lab/lab/track"
)

// A step's experiment has GOOD's, the midpoint's and BAD's builds as its
// variants, each with the file's baseline settings, GOOD the baseline; the
// rounds of track (5 fixed, which no paired test at 0.05 can decide on)
// become 6..12, rounds that can decide are kept; the order of the three is
// random in each round; two scenarios are refused.
func TestThreeVariants(t *testing.T) {
	e := &lab.Experiment{Name: "track", Scenarios: []string{"GETSingle"}, Trials: lab.Trials{Min: 5, Max: 5},
		Variants: []lab.Variant{{Name: "build", Baseline: true, PostgREST: map[string]string{"db-pool": "1"}}}}
	if err := ThreeVariants(e); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, v := range e.Variants {
		names = append(names, v.Name)
		if v.PostgREST["db-pool"] != "1" || v.Baseline != (v.Name == VariantGood) {
			t.Errorf("variant %+v", v)
		}
	}
	if strings.Join(names, ",") != "good,mid,bad" || e.Trials.Min != DefaultMinRounds || e.Trials.Max != DefaultMaxRounds || e.Trials.Order != lab.OrderRandom {
		t.Errorf("variants %v, rounds %d..%d, order %q", names, e.Trials.Min, e.Trials.Max, e.Trials.Order)
	}
	e.Trials.Min, e.Trials.Max = 8, 20
	if err := ThreeVariants(e); err != nil || e.Trials.Min != 8 || e.Trials.Max != 20 {
		t.Errorf("rounds that can decide changed to %d..%d (%v)", e.Trials.Min, e.Trials.Max, err)
	}
	e.Scenarios = append(e.Scenarios, "POSTSingle")
	if err := ThreeVariants(e); err == nil || !strings.Contains(err.Error(), "has 2 scenarios") {
		t.Errorf("two scenarios: %v", err)
	}
}

// RunMeasurer gives the runner the three builds as variants and a stop
// rule that stops once the step is decided, and compares the run's CPU
// per request with the lab's paired test: a midpoint at GOOD's level in a
// synthetic run with 3 % noise is the old level, one at BAD's the new.
func TestRunMeasurer(t *testing.T) {
	e := &lab.Experiment{Name: "track", Scenarios: []string{"GETSingle"}, Trials: lab.Trials{Min: 6, Max: 6},
		Variants: []lab.Variant{{Name: "build", Baseline: true}}}
	if err := ThreeVariants(e); err != nil {
		t.Fatal(err)
	}
	built := func(c string) Built {
		return Built{Commit: track.Commit{SHA: strings.Repeat(c, 40)}, Build: track.Build{Path: "/cache/" + c, Command: "sh build.sh"}}
	}
	for _, tc := range []struct {
		midDB float64
		want  Level
	}{{100, Old}, {1100, New}} {
		var stopped bool
		run := func(_ context.Context, e *lab.Experiment, bins []lab.Binary, stop func(*lab.Run) bool) (*lab.Run, string, error) {
			if len(bins) != 3 || bins[1].Name != VariantMid || bins[1].Commit != strings.Repeat("b", 40) || e.Variants[1].Binary != "/cache/b" ||
				!strings.Contains(e.Variants[1].Description, "built with `sh build.sh`") {
				t.Errorf("binaries %+v, variants %+v", bins, e.Variants)
			}
			r := statstest.Run(statstest.Spec{Experiment: "track", Scenarios: []string{"GETSingle"}, Trials: 6, Noise: 0.03, Seed: 7,
				Variants: []statstest.Variant{
					{Name: VariantGood, Baseline: true, Rate: 1000, P50Ms: 5, ServerUs: 150, DBUs: 100},
					{Name: VariantMid, Rate: 1000, P50Ms: 5, ServerUs: 150, DBUs: tc.midDB},
					{Name: VariantBad, Rate: 1000, P50Ms: 5, ServerUs: 150, DBUs: 1100}}})
			stopped = stop(r)
			return r, "results/track/1", nil
		}
		m, err := RunMeasurer(e, metricCPU(t), run)(context.Background(), built("a"), built("b"), built("c"))
		if err != nil {
			t.Fatal(err)
		}
		d, _ := Decide(m.Comparisons, true)
		if d.Level != tc.want || !stopped || m.Rounds != 6 || m.Dir != "results/track/1" || m.Ends.DeltaPct < 300 {
			t.Errorf("mid at %g: %s (%s), stop rule %v, %d rounds, dir %q, ends %+.0f%%", tc.midDB, d.Level, d.Why, stopped, m.Rounds, m.Dir, m.Ends.DeltaPct)
		}
	}
}

// --metric takes the lab's metric names; a misspelt one is refused with
// the closest.
func TestMetricNamed(t *testing.T) {
	if m, err := MetricNamed("db_cpu"); err != nil || m.Unit != "µs/req" {
		t.Errorf("db_cpu: %+v %v", m, err)
	}
	if _, err := MetricNamed("cpus"); err == nil || !strings.Contains(err.Error(), `--metric "cpus": no such metric (did you mean "cpu"?)`) {
		t.Errorf("cpus: %v", err)
	}
}
