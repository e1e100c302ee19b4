package calibrate_test

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/internal/pgburn"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/calibrate"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
	"github.com/pgrst-lab/pgrst-lab/lab/stats/statstest"
)

func TestDerive(t *testing.T) {
	e := &lab.Experiment{Name: "socket-vs-tcp", Scenarios: []string{"GETSingle", "POSTSingle"},
		Load:   lab.Load{Model: lab.ModelClosed, Connections: 10, Duration: time.Second},
		Trials: lab.Trials{Min: 5, Max: 10, Alpha: 0.05, Order: lab.OrderInterleaved},
		Variants: []lab.Variant{
			{Name: "tcp", Baseline: true, PostgREST: map[string]string{"db-uri": "tcp"}, Env: map[string]string{"GHCRTS": "-qn1"}},
			{Name: "unix", PostgREST: map[string]string{"db-uri": "unix"}},
		}}
	c := calibrate.Derive(e, calibrate.InjectServer, 120)
	if len(c.Variants) != 2 || c.Variants[0].Name != calibrate.NameA || !c.Variants[0].Baseline || c.Variants[1].Baseline {
		t.Fatalf("variants %+v", c.Variants)
	}
	for _, v := range c.Variants {
		if v.PostgREST["db-uri"] != "tcp" || v.Env["GHCRTS"] != "-qn1" {
			t.Errorf("%s: %+v, want the baseline's settings", v.Name, v)
		}
	}
	if c.Variants[1].Env[calibrate.InjectEnv] != "120" || c.Variants[0].Env[calibrate.InjectEnv] != "" {
		t.Errorf("injection: A %v, A' %v", c.Variants[0].Env, c.Variants[1].Env)
	}
	if _, ok := e.Variants[0].Env[calibrate.InjectEnv]; ok || len(e.Scenarios) != 2 {
		t.Error("Derive changed the original experiment")
	}
	if len(c.Scenarios) != 1 || c.Scenarios[0] != "GETSingle" || c.Trials != e.Trials {
		t.Errorf("scenarios %v trials %+v", c.Scenarios, c.Trials)
	}
	if errs := c.Validate(); len(errs) > 0 {
		t.Errorf("derived experiment invalid: %v", errs)
	}
	if aa := calibrate.Derive(e, calibrate.InjectServer, 0); aa.Variants[1].Env[calibrate.InjectEnv] != "" {
		t.Errorf("A/A injects: %v", aa.Variants[1].Env)
	}
}

// The database injection: both variants call a pre-request function, A's
// spinning zero times; only A' calls the spinning one, and only when an
// effect is injected. The baseline's own keys stay.
func TestDeriveDatabase(t *testing.T) {
	e := &lab.Experiment{Name: "socket-vs-tcp", Scenarios: []string{"GETSingle"},
		Load:     lab.Load{Model: lab.ModelClosed, Connections: 10, Duration: time.Second},
		Trials:   lab.Trials{Min: 5, Max: 10, Alpha: 0.05, Order: lab.OrderInterleaved},
		Variants: []lab.Variant{{Name: "tcp", Baseline: true, PostgREST: map[string]string{"db-uri": "tcp"}}, {Name: "unix"}}}
	c := calibrate.Derive(e, calibrate.InjectDatabase, 40)
	a, p := c.Variants[0], c.Variants[1]
	if a.PostgREST["db-pre-request"] != pgburn.A || p.PostgREST["db-pre-request"] != pgburn.B {
		t.Errorf("pre-request: A %v, A' %v", a.PostgREST, p.PostgREST)
	}
	if a.PostgREST["db-uri"] != "tcp" || p.PostgREST["db-uri"] != "tcp" || len(p.Env) != 0 {
		t.Errorf("A %+v A' %+v, want the baseline's keys and no environment", a, p)
	}
	if errs := c.Validate(); len(errs) > 0 {
		t.Errorf("derived experiment invalid: %v", errs)
	}
	aa := calibrate.Derive(e, calibrate.InjectDatabase, 0)
	if aa.Variants[1].PostgREST["db-pre-request"] != pgburn.A {
		t.Errorf("A/A: A' calls %q", aa.Variants[1].PostgREST["db-pre-request"])
	}
	if e.Variants[0].PostgREST["db-pre-request"] != "" {
		t.Error("Derive changed the original experiment")
	}
	for in, want := range map[string]calibrate.Injection{"": calibrate.InjectDatabase, "database": calibrate.InjectDatabase} {
		if got, err := calibrate.ParseInjection(in, false); err != nil || got != want {
			t.Errorf("real server, %q: %v %v", in, got, err)
		}
	}
	if got, _ := calibrate.ParseInjection("", true); got != calibrate.InjectServer {
		t.Errorf("reference server default: %v", got)
	}
	for _, in := range []string{"server", "cpu"} {
		if _, err := calibrate.ParseInjection(in, false); err == nil {
			t.Errorf("%q on the real server: no error", in)
		}
	}
}

// On a saturated 2-core machine at 2000 req/s a request costs 1000 µs of
// machine CPU; slowing it by 10 % takes 1000·0.1/0.9 ≈ 111 µs more.
func TestInjectUs(t *testing.T) {
	b := calibrate.Baseline{Rate: 2000, CPUs: 2}
	if us := calibrate.InjectUs(10, b); us != 111 {
		t.Errorf("10%%: %d µs, want 111", us)
	}
	if us := calibrate.InjectUs(0, b); us != 0 {
		t.Errorf("0%%: %d µs", us)
	}
	if us := calibrate.InjectUs(10, calibrate.Baseline{Rate: 2000, CPUs: 2, CPUPerReq: 700, Efficiency: true}); us != 70 {
		t.Errorf("efficiency, 10%% of 700 µs/req: %d µs, want 70", us)
	}
	if calibrate.InjectUs(3, b) >= calibrate.InjectUs(5, b) {
		t.Error("not increasing with the effect")
	}
}

func TestTally(t *testing.T) {
	outs := []calibrate.Outcome{
		{EffectPct: 0, Significant: false, DeltaPct: 0.5, MDEPct: 4, Rounds: 6, Took: time.Minute},
		{EffectPct: 0, Significant: true, Outcome: stats.Better, DeltaPct: 3, MDEPct: 4, Rounds: 10, Took: time.Minute},
		{EffectPct: 3, InjectUs: 30, Significant: true, Outcome: stats.Worse, DeltaPct: -3, MDEPct: 4, Rounds: 8, Took: 2 * time.Minute},
		{EffectPct: 3, InjectUs: 30, Significant: true, Outcome: stats.Better, DeltaPct: math.NaN(), MDEPct: math.Inf(1), Rounds: 8, Took: 2 * time.Minute},
		{EffectPct: 3, InjectUs: 30, Error: "stack down"},
	}
	rows := calibrate.Tally(outs)
	if len(rows) != 2 {
		t.Fatalf("rows %+v", rows)
	}
	aa, r3 := rows[0], rows[1]
	if aa.EffectPct != 0 || aa.Runs != 2 || aa.Hits != 1 || aa.Rate != 0.5 || aa.MeanRnds != 8 {
		t.Errorf("A/A row %+v: a significant A/A verdict either way is a false positive", aa)
	}
	if r3.Runs != 2 || r3.Failed != 1 || r3.Hits != 1 || r3.MeanPct != -3 || r3.MeanMDE != 4 || r3.InjectUs != 30 {
		t.Errorf("3%% row %+v: only 'worse' detects a slowdown; failed runs and unknown numbers left out", r3)
	}
	if !(r3.RateLo < 0.5 && r3.RateHi > 0.5 && r3.RateLo >= 0 && r3.RateHi <= 1) {
		t.Errorf("Wilson interval %.2f..%.2f around 0.5", r3.RateLo, r3.RateHi)
	}
	b, err := json.Marshal(calibrate.Result{Rows: rows, Outcomes: outs})
	if err != nil || !strings.Contains(string(b), `"delta_pct":null`) || !strings.Contains(string(b), `"measured_change_pct":-3`) {
		t.Errorf("json: %v %s", err, b)
	}
}

func TestOutcomeOf(t *testing.T) {
	run := statstest.Run(statstest.Spec{Experiment: "c", Scenarios: []string{"GETSingle"}, Trials: 8, Noise: 0.01, Seed: 3,
		Variants: []statstest.Variant{{Name: calibrate.NameA, Baseline: true, Rate: 2000}, {Name: calibrate.NamePrimed, Rate: 1800}}})
	o := calibrate.OutcomeOf(run, stats.Compare(run, 0), 10, 111)
	if !o.Significant || o.Outcome != stats.Worse || math.Abs(o.DeltaPct+10) > 2 || o.Rounds != 8 || o.Test != stats.TestSignedRank {
		t.Errorf("outcome %+v, want a significant paired -10%%", o)
	}
	if b, ok := calibrate.BaselineOf(run); !ok || math.Abs(b.Rate-2000) > 60 || b.CPUs != 2 {
		t.Errorf("baseline %+v", b)
	}
}

// A probe that realised 7.5 % of a nominal 10 % scales the injections by
// 4/3; one without a change, or the wrong way, leaves them as modelled;
// a wild one is clamped.
func TestSizeFrom(t *testing.T) {
	for _, tc := range []struct {
		delta  float64
		better int
		scale  float64
		note   string
	}{
		{-7.5, +1, 10 / 7.5, ""}, // throughput fell 7.5 %
		{+7.5, -1, 10 / 7.5, ""}, // CPU per request rose 7.5 %
		{+2, +1, 1, "not in the injection's direction"},
		{-1, +1, calibrate.MaxScale, "clamped"},
		{-40, +1, calibrate.MinScale, "clamped"},
		{math.NaN(), +1, 1, "no change"},
	} {
		s := calibrate.SizeFrom(calibrate.Outcome{EffectPct: 10, InjectUs: 400, DeltaPct: tc.delta}, tc.better)
		if math.Abs(s.Scale-tc.scale) > 1e-9 || (tc.note == "") != (s.Note == "") || !strings.Contains(s.Note, tc.note) {
			t.Errorf("delta %+.1f better %+d: scale %.3f note %q, want %.3f %q", tc.delta, tc.better, s.Scale, s.Note, tc.scale, tc.note)
		}
	}
	b := calibrate.Baseline{Rate: 2000, CPUs: 2}
	plain := calibrate.InjectUs(5, b)
	b.Scale = 2
	if got := calibrate.InjectUs(5, b); got < 2*plain-1 || got > 2*plain+1 {
		t.Errorf("InjectUs with Scale 2: %d, want about 2 × %d", got, plain)
	}
}

// Refit pools the probe with the counted runs (the figures of a real
// PostgREST series: a 3 % probe of 19 µs realised +4.5 % of CPU per
// request, then 4, 9 and 13 µs realised +1.4, +3.1 and +4.0 %): least
// squares through the origin gives the µs per percent, and Scale is that
// over the model's.
func TestRefit(t *testing.T) {
	b := calibrate.Baseline{Rate: 1300, CPUs: 2, CPUPerReq: 430, Efficiency: true}
	model := calibrate.ModelUsPerPct(3, b)
	if math.Abs(model-4.3) > 1e-9 {
		t.Fatalf("model µs per percent %.3f, want 4.3 (1 %% of 430 µs)", model)
	}
	probe := calibrate.SizeFrom(calibrate.Outcome{EffectPct: 3, InjectUs: 19, DeltaPct: 4.5}, -1)
	outs := []calibrate.Outcome{
		{EffectPct: 0, DeltaPct: -0.3, Rounds: 9}, // A/A: left out
		{EffectPct: 1, InjectUs: 4, DeltaPct: 1.4, Rounds: 11},
		{EffectPct: 2, InjectUs: 9, DeltaPct: 3.1, Rounds: 11},
		{EffectPct: 3, InjectUs: 13, DeltaPct: 4.0, Rounds: 11},
		{EffectPct: 3, InjectUs: 13, Error: "stack down"},            // failed: left out
		{EffectPct: 2, InjectUs: 9, DeltaPct: math.NaN(), Rounds: 3}, // no change measured: left out
	}
	s := calibrate.Refit(probe, outs, -1, model)
	usPerPct := (19.0*19 + 4*4 + 9*9 + 13*13) / (19*4.5 + 4*1.4 + 9*3.1 + 13*4.0)
	if s.FitRuns != 4 || math.Abs(s.UsPerPct-usPerPct) > 1e-9 || math.Abs(s.Scale-usPerPct/model) > 1e-9 || s.Note != "" {
		t.Errorf("refit %+v: want 4 runs, %.3f µs per percent, scale %.3f", s, usPerPct, usPerPct/model)
	}
	if s.InjectUs != 19 || s.RealisedPct != 4.5 || !strings.Contains(s.String(), "sized by 4 effect runs") || !strings.Contains(s.String(), "1% takes 3.7 µs") {
		t.Errorf("refit keeps the probe and says the fit: %q", s)
	}
	b.Scale = s.Scale
	if us := calibrate.InjectUs(1, b); us != 4 { // 3.67 µs
		t.Errorf("1%% after the refit: %d µs, want 4", us)
	}
	// Throughput as the metric: an injection lowers it (better = +1).
	if s2 := calibrate.Refit(calibrate.SizeFrom(calibrate.Outcome{EffectPct: 3, InjectUs: 19, DeltaPct: -4.5}, +1),
		[]calibrate.Outcome{{EffectPct: 1, InjectUs: 4, DeltaPct: -1.4, Rounds: 11}}, +1, model); s2.FitRuns != 2 || !(s2.UsPerPct > 0) {
		t.Errorf("throughput refit %+v", s2)
	}
	if s3 := calibrate.Refit(probe, nil, -1, model); s3 != probe {
		t.Errorf("the probe alone: %+v, want it unchanged", s3)
	}
	against := calibrate.Refit(calibrate.Sizing{EffectPct: 3, InjectUs: 19, RealisedPct: math.NaN(), Scale: 1},
		[]calibrate.Outcome{{EffectPct: 1, InjectUs: 4, DeltaPct: -1, Rounds: 6}, {EffectPct: 2, InjectUs: 9, DeltaPct: -2, Rounds: 6}}, -1, model)
	if against.Scale != 1 || !strings.Contains(against.Note, "against the injection's direction") {
		t.Errorf("runs against the injection: %+v, want the sizing kept and said", against)
	}
	wild := calibrate.Refit(probe, []calibrate.Outcome{{EffectPct: 1, InjectUs: 4, DeltaPct: 40, Rounds: 6}}, -1, model)
	if wild.Scale != calibrate.MinScale || !strings.Contains(wild.Note, "clamped") {
		t.Errorf("a wild run: %+v, want the correction clamped", wild)
	}
}

// Runs of one effect with different injections (the sizing refitted, or
// parts pooled) show the range.
func TestTallyInjectRange(t *testing.T) {
	rows := calibrate.Tally([]calibrate.Outcome{
		{EffectPct: 2, InjectUs: 9, Rounds: 11}, {EffectPct: 2, InjectUs: 8, Rounds: 11}, {EffectPct: 3, InjectUs: 13, Rounds: 11},
	})
	if len(rows) != 2 || rows[0].InjectUs != 9 || rows[0].InjectUsMin != 8 || rows[1].InjectUs != 13 || rows[1].InjectUsMin != 0 {
		t.Errorf("rows %+v: want 8..9 µs at 2 %%, 13 µs at 3 %%", rows)
	}
}

// A calibration runs the experiment's first scenario only; the custom
// scenarios it does not run (per_line's other lines) go with the rest, so
// that the derived experiment is valid.
func TestDeriveKeepsTheFirstScenarioOnly(t *testing.T) {
	e := &lab.Experiment{Name: "binaries", Scenarios: []string{"GET-artist", "GET-album"},
		Custom:   []lab.Scenario{{Name: "GET-artist", Targets: "/t.http", Line: 1}, {Name: "GET-album", Targets: "/t.http", Line: 2}},
		Variants: []lab.Variant{{Name: "release", Baseline: true}}}
	c := calibrate.Derive(e, calibrate.InjectDatabase, 10)
	if len(c.Scenarios) != 1 || c.Scenarios[0] != "GET-artist" || len(c.Custom) != 1 || c.Custom[0].Name != "GET-artist" {
		t.Errorf("scenarios %v, custom %+v; want GET-artist alone", c.Scenarios, c.Custom)
	}
	if len(e.Custom) != 2 {
		t.Errorf("Derive changed the experiment's own scenarios: %+v", e.Custom)
	}
}

// Calibration sizes its injection for throughput or CPU per request: an
// experiment headlined on anything else is refused, saying what it has.
func TestCheckHeadline(t *testing.T) {
	for _, c := range []struct {
		model    lab.Model
		headline string
		want     string // "" accepted
	}{
		{lab.ModelClosed, "", ""},
		{lab.ModelSearch, "", ""},
		{lab.ModelEfficiency, "", ""},
		{lab.ModelOpen, "", "headline is p99 (latency p99)"},
		{lab.ModelClosed, "peak_rss", "headline is peak_rss"},
		{lab.ModelEfficiency, "rate", "headline is rate"},
	} {
		e := &lab.Experiment{Name: "x", Load: lab.Load{Model: c.model}, Trials: lab.Trials{Headline: c.headline}}
		err := calibrate.CheckHeadline(e)
		if (err == nil) != (c.want == "") || (err != nil && !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s, headline %q: %v, want %q", c.model, c.headline, err, c.want)
		}
	}
}
