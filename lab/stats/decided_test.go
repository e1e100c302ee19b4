package stats_test

import (
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
	"github.com/pgrst-lab/pgrst-lab/lab/stats/statstest"
)

// A run whose headline is decided at a look (B 20 % faster, 9 rounds of
// 8..16: threshold 0.0072, and 9 pairs reach p = 2/2^9 = 0.0039) still
// goes on while its per-line verdicts are out of reach there: two lines
// tested, Holm's strictest step is 0.0036. At 10 rounds (0.0049 against
// 0.0020) it is decided; without a targets file, at 9.
func TestDecidedWaitsForPerLineVerdictsInReach(t *testing.T) {
	rounds := func(n int, lines bool) *lab.Run {
		run := statstest.Run(statstest.Spec{Experiment: "loadtest", Scenarios: []string{"targets"}, Trials: n, Noise: 0.02, Seed: 7,
			Variants: []statstest.Variant{{Name: "A", Baseline: true, Rate: 1000, P50Ms: 2}, {Name: "B", Rate: 1200, P50Ms: 2}}})
		run.Experiment.Trials.Min, run.Experiment.Trials.Max = 8, 16
		if lines {
			statstest.AddEndpoints(run, map[string]float64{"B": 4}, 0.03, "", 9)
		}
		return run
	}
	if !stats.Decided(rounds(9, false), 0.05) {
		t.Fatal("B +20 % after 9 rounds, no targets file: not decided")
	}
	nine := rounds(9, true)
	if stats.Decided(nine, 0.05) {
		v := stats.Compare(nine, 0.05)
		t.Errorf("9 rounds with two lines tested: decided, though no line can be (line threshold %.4f, MDE %v)",
			v.Endpoints[0].Row.Threshold/2, v.Endpoints[0].Row.MDEPct)
	}
	reach := stats.Compare(nine, 0.05).LinesReach()
	if len(reach) != 1 {
		t.Fatalf("9 rounds, two lines: reach %+v, want one comparison", reach)
	}
	if reach[0].Reachable() || reach[0].Lines != 2 || reach[0].N != 9 || reach[0].Need != 10 ||
		!strings.Contains(reach[0].Sentence(), "the lines need 10 rounds or more") {
		t.Errorf("9 rounds, two lines: reach %+v, sentence %q; want out of reach, 10 rounds needed", reach, reach[0].Sentence())
	}
	ten := rounds(10, true)
	if !stats.Decided(ten, 0.05) {
		t.Error("10 rounds with two lines tested: not decided")
	}
	if r := stats.Compare(ten, 0.05).LinesReach(); len(r) != 1 || !r[0].Reachable() || r[0].Sentence() != "" {
		t.Errorf("10 rounds, two lines: reach %+v, want in reach and nothing to say", r)
	}
}
