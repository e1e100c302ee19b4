package gate_test

import (
	"math"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/gate"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
	"github.com/pgrst-lab/pgrst-lab/lab/stats/statstest"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string // rules as String(), or "" when an error is expected
		err  []string
	}{
		{in: "throughput<-3%,p99>+10%", want: "throughput<-3%,p99>+10%"},
		{in: " throughput < -3 % , p99>10% ", want: "throughput<-3%,p99>+10%"},
		{in: "rate<-2.5%", want: "rate<-2.5%"},
		{in: "cpu>+5%,peak_rss>+20%,errors>+1%", want: "cpu>+5%,peak_rss>+20%,errors>+1%"},
		{in: "THROUGHPUT<-3%", want: "THROUGHPUT<-3%"},
		{in: "endpoint_p50>+5%,endpoint_p0>+5%", want: "endpoint_p50>+5%,endpoint_p0>+5%"},
		{in: "endpoint_p51>+5%", err: []string{`did you mean "endpoint_p50"`}},
		{in: "", err: []string{"empty"}},
		{in: "throughpt<-3%", err: []string{`rule 1 "throughpt<-3%"`, `unknown metric "throughpt"`, `did you mean "throughput"`, "allowed: throughput, p50, p99"}},
		{in: "latency>+10%", err: []string{`unknown metric "latency"`, "allowed:"}},
		{in: "speed_ref>+5%", err: []string{`unknown metric "speed_ref"`}}, // the measurement's check, not a PR's
		{in: "throughput-3%", err: []string{"no comparison"}},
		{in: "<-3%", err: []string{"no metric"}},
		{in: "p99>10", err: []string{`threshold "10"`, "percentage"}},
		{in: "p99>=10%", err: []string{"one comparison"}},
		{in: "p99>abc%", err: []string{`threshold "abc%"`}},
		{in: "throughput<+3%", err: []string{"'<' needs a negative percentage"}},
		{in: "p99>-10%", err: []string{"'>' needs a positive percentage"}},
		{in: "p99>0%", err: []string{"positive"}},
		{in: "p99>+5000%", err: []string{"between -1000% and +1000%"}},
		{in: "throughput<-3%,,p99>1%", err: []string{"rule 2", "no comparison"}},
		{in: "bogus<-1%,p99>x%", err: []string{"rule 1", "rule 2"}},
	} {
		rules, err := gate.Parse(tc.in)
		if tc.want != "" {
			if err != nil {
				t.Errorf("Parse(%q): %v", tc.in, err)
			} else if got := gate.String(rules); got != tc.want {
				t.Errorf("Parse(%q) = %q, want %q", tc.in, got, tc.want)
			}
			continue
		}
		if err == nil {
			t.Errorf("Parse(%q) = %q, want an error", tc.in, gate.String(rules))
			continue
		}
		for _, w := range tc.err {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("Parse(%q): error %q lacks %q", tc.in, err, w)
			}
		}
	}
}

// abRun is a synthetic A/B run: pr's throughput and CPU per request are
// factor times base's (latency the inverse).
func abRun(rateFactor float64, noise float64, seed uint64) *lab.Run {
	return statstest.Run(statstest.Spec{
		Experiment: "ab", Scenarios: []string{"GETSingle"}, Trials: 8, Noise: noise, Drift: 0.02, Seed: seed,
		Variants: []statstest.Variant{
			{Name: "base", Baseline: true, Rate: 2000, P50Ms: 4, ServerUs: 400, DBUs: 300, RSSMB: 50},
			{Name: "pr", Rate: 2000 * rateFactor, P50Ms: 4 / rateFactor, ServerUs: 400 / rateFactor, DBUs: 300, RSSMB: 50},
		},
	})
}

func TestEvaluate(t *testing.T) {
	rules, err := gate.Parse("throughput<-3%,p50>+10%")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		run    *lab.Run
		firing []string // metric names that must fire
	}{
		{"15% slower fires throughput and p50", abRun(0.85, 0.01, 1), []string{"rate", "p50"}},
		{"5% slower fires throughput only (p50 +5% is within +10%)", abRun(0.95, 0.01, 2), []string{"rate"}},
		{"2% slower is within the threshold", abRun(0.98, 0.005, 3), nil},
		{"20% faster fires nothing", abRun(1.2, 0.01, 4), nil},
		{"10% slower but too noisy to be significant", abRun(0.90, 0.6, 5), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := stats.Compare(tc.run, 0.05)
			fired := gate.Evaluate(rules, v)
			got := map[string]bool{}
			for _, f := range fired {
				got[f.Row.Metric.Name] = true
				if !f.Row.Significant {
					t.Errorf("fired on a non-significant row: %s", f)
				}
				if !strings.Contains(f.String(), f.Rule.Text) || !strings.Contains(f.String(), "GETSingle: pr vs base") {
					t.Errorf("firing says %q", f)
				}
			}
			if len(got) != len(tc.firing) {
				t.Errorf("fired %v, want %v", fired, tc.firing)
			}
			for _, m := range tc.firing {
				if !got[m] {
					t.Errorf("%s did not fire; rows: %v", m, rowsOf(v, m))
				}
			}
		})
	}
}

func rowsOf(v *stats.Verdicts, metric string) []string {
	var out []string
	for _, r := range v.Rows {
		if r.Metric.Name == metric {
			out = append(out, r.Delta()+" "+r.PString())
		}
	}
	return out
}

// A gate is blind where the run's MDE exceeds its threshold.
func TestBlind(t *testing.T) {
	rules, err := gate.Parse("throughput<-3%,p50>+50%")
	if err != nil {
		t.Fatal(err)
	}
	quiet := gate.Blind(rules, stats.Compare(abRun(1, 0.005, 6), 0.05))
	if len(quiet) != 0 {
		t.Errorf("a quiet run (noise 0.5%%) is blind on %v", quiet)
	}
	noisy := gate.Blind(rules, stats.Compare(abRun(1, 0.3, 7), 0.05))
	if len(noisy) == 0 || noisy[0].Row.Metric.Name != "rate" {
		t.Fatalf("a noisy run (30%%) is blind on %v, want throughput", noisy)
	}
	if s := noisy[0].BlindString(); !strings.Contains(s, "GETSingle: pr vs base: throughput: mde ±") || !strings.Contains(s, "> 3% (throughput<-3%)") {
		t.Errorf("BlindString %q", s)
	}
}

// Per-endpoint rules (PostgREST's CI's "P50 of a line moved by 5 %", with
// a test behind it) fire on the lines whose quantile changed significantly
// beyond them, and on no other.
func TestEvaluateEndpoints(t *testing.T) {
	run := statstest.Run(statstest.Spec{Experiment: "loadtest", Scenarios: []string{"targets"}, Trials: 10, Noise: 0.02, Seed: 3,
		Variants: []statstest.Variant{{Name: "A", Baseline: true, Rate: 1000, P50Ms: 2}, {Name: "B", Rate: 1000, P50Ms: 2}}})
	statstest.AddEndpoints(run, map[string]float64{"B": 0.5}, 0.03, "B", 9) // line 1 twice as slow in B
	v := stats.Compare(run, 0.05)
	rules, err := gate.Parse("endpoint_p50>+5%,endpoint_p99>+150%")
	if err != nil {
		t.Fatal(err)
	}
	fired := gate.Evaluate(rules, v)
	if len(fired) != 1 || fired[0].Rule.Text != "endpoint_p50>+5%" || !strings.Contains(fired[0].String(), "200 GET /track?select=* p50") {
		t.Fatalf("fired %v, want endpoint_p50 on line 1 only", fired)
	}
	for _, b := range gate.Blind(rules, v) {
		if !(b.Row.MDEPct > math.Abs(b.Rule.Pct)) || !strings.HasPrefix(b.Row.Metric.Name, "endpoint_") {
			t.Errorf("blind on %s although its MDE is ±%.1f%%", b.BlindString(), b.Row.MDEPct)
		}
	}
}

// Issue 55: a rule is decided or it is inconclusive. A gate that fired
// failed; one that fired nowhere but was blind somewhere (its threshold
// below the run's MDE) is inconclusive, never "passed"; only a gate every
// rule of which could have seen a change of its size passes. A row on
// which a rule fired is decided, and is not also listed blind.
func TestDecide(t *testing.T) {
	rules, err := gate.Parse("throughput<-3%")
	if err != nil {
		t.Fatal(err)
	}
	decide := func(run *lab.Run) (gate.Decision, []gate.Firing, []gate.Firing) {
		v := stats.Compare(run, 0.05)
		fired, blind := gate.Evaluate(rules, v), gate.Blind(rules, v)
		return gate.Decide(len(fired), len(blind)), fired, blind
	}
	if d, _, blind := decide(abRun(1, 0.005, 6)); d != gate.Passed {
		t.Errorf("a quiet A/A: %s (blind on %v), want passed", d, blind)
	}
	if d, fired, _ := decide(abRun(1, 0.3, 7)); d != gate.Inconclusive {
		t.Errorf("a noisy A/A (30%%): %s (fired %v), want inconclusive", d, fired)
	}
	// Twice as slow with 8 % noise: significant, although the MDE is
	// above the 3 % threshold.
	d, fired, blind := decide(abRun(0.5, 0.08, 8))
	if d != gate.Failed || len(fired) == 0 {
		t.Fatalf("twice as slow: %s, fired %v, want failed", d, fired)
	}
	for _, b := range blind {
		if b.Row.Metric.Name == "rate" {
			t.Errorf("the row that fired is also listed blind: %s", b.BlindString())
		}
	}
}

// A metric that read the same in every trial of both sides (errors 0
// throughout) states no MDE, yet did not change in any round: the rule is
// not blind there.
func TestBlindSkipsAConstant(t *testing.T) {
	rules, err := gate.Parse("errors>+50%")
	if err != nil {
		t.Fatal(err)
	}
	v := stats.Compare(abRun(1, 0.01, 9), 0.05)
	if len(rowsOf(v, "errors")) == 0 {
		t.Fatal("the run has no errors row to test")
	}
	if blind := gate.Blind(rules, v); len(blind) != 0 {
		t.Errorf("errors 0 on both sides read as blind: %v", blind)
	}
}

// A rule on a metric the run did not measure decides nothing; one on a
// change that went significantly the other way is decided, whatever its
// MDE.
func TestUnmeasuredAndAgainst(t *testing.T) {
	rules, err := gate.Parse("throughput>+0.01%,jwt_cache_hit_rate>+5%")
	if err != nil {
		t.Fatal(err)
	}
	v := stats.Compare(abRun(0.5, 0.08, 8), 0.05) // twice as slow
	if un := gate.Unmeasured(rules, v); len(un) != 1 || un[0].Metric.Name != "jwt_cache_hit_rate" {
		t.Errorf("unmeasured %v, want the JWT cache rule", un)
	}
	for _, b := range gate.Blind(rules, v) {
		if b.Row.Metric.Name == "rate" {
			t.Errorf("throughput fell significantly, yet the rule on its rise is blind: %s", b.BlindString())
		}
	}
}

// Issue 55: the stop rule waits for the gate. At a look where a rule is
// blind on some comparison, more rounds are wanted; where every rule can
// decide, or one fired, the gate lets the run stop.
func TestDecides(t *testing.T) {
	rules, err := gate.Parse("throughput<-3%")
	if err != nil {
		t.Fatal(err)
	}
	stop := gate.Decides(rules)
	if !stop(abRun(1, 0.005, 6)) {
		t.Error("a quiet A/A, where the rule can see 3 %, does not let the run stop")
	}
	if stop(abRun(1, 0.3, 7)) {
		t.Error("a noisy A/A (30 %), where the rule is blind, lets the run stop")
	}
	if !stop(abRun(0.5, 0.08, 8)) {
		t.Error("a run where the rule fired does not let the run stop")
	}
}
