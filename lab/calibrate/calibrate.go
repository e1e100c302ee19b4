// Package calibrate measures how sensitive an experiment design is on this
// machine: it repeats A/A runs (the baseline configuration against itself)
// and A/A' runs (the same, with a known amount of CPU work injected into
// every request of the second copy: in the reference server's handler
// through PGRST_LAB_INJECT_CPU_US, or on any PostgREST in PostgreSQL
// through a db-pre-request function that spins), and tallies the
// false-positive rate and the detection rate per injected effect: a power
// curve. `lab calibrate` runs it; this
// package holds the pure parts (deriving the experiment, choosing the
// injection, tallying).
package calibrate

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/pgrst-lab/pgrst-lab/internal/pgburn"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// InjectEnv is the reference server's variable for injected CPU work
// (microseconds per request).
const InjectEnv = "PGRST_LAB_INJECT_CPU_US"

// Variant names of a calibration run.
const (
	NameA      = "A"
	NamePrimed = "A-prime"
)

// Derive returns the calibration experiment for e: e's baseline variant
// twice, as A (baseline) and A' with injectUs of CPU work per request (0:
// an A/A run) injected as inj says, on e's first scenario only (bounding
// the time), with e's load and trial design. With InjectDatabase both
// call a pre-request function (A's spins 0 times, A-prime's as pgburn.BSQL
// made it); an A/A run has both call A's.
func Derive(e *lab.Experiment, inj Injection, injectUs int) *lab.Experiment {
	c := *e
	base := e.BaselineVariant()
	a := copyVariant(base)
	a.Name, a.Baseline, a.Description = NameA, true, "baseline "+base.Name
	p := copyVariant(base)
	p.Name, p.Baseline, p.Description = NamePrimed, false, "baseline "+base.Name+" again"
	if inj == InjectDatabase {
		a.PostgREST = setKey(a.PostgREST, "db-pre-request", pgburn.A)
		p.PostgREST = setKey(p.PostgREST, "db-pre-request", pgburn.A)
	}
	if injectUs > 0 {
		switch inj {
		case InjectDatabase:
			p.PostgREST["db-pre-request"] = pgburn.B
			p.Description = fmt.Sprintf("baseline %s with about %d µs of PostgreSQL CPU per request (a pre-request function)", base.Name, injectUs)
		default:
			p.Env = setKey(p.Env, InjectEnv, strconv.Itoa(injectUs))
			p.Description = fmt.Sprintf("baseline %s with %d µs of CPU work injected per request", base.Name, injectUs)
		}
	}
	c.Variants = []lab.Variant{a, p}
	if len(e.Scenarios) > 1 {
		c.Scenarios = e.Scenarios[:1]
		// Custom scenarios not run are dropped with it (per_line's other
		// lines): a listed one alone is valid.
		c.Custom = slices.DeleteFunc(slices.Clone(e.Custom), func(s lab.Scenario) bool { return s.Name != c.Scenarios[0] })
	}
	c.Name = e.Name + "-calibration"
	c.Title = "Calibration of " + e.Name
	return &c
}

func setKey(m map[string]string, k, v string) map[string]string {
	if m == nil {
		m = map[string]string{}
	}
	m[k] = v
	return m
}

func copyVariant(v lab.Variant) lab.Variant {
	v.PostgREST = maps.Clone(v.PostgREST)
	v.PostgreSQL = maps.Clone(v.PostgreSQL)
	v.Env = maps.Clone(v.Env)
	v.DropIn = maps.Clone(v.DropIn)
	v.Args = append([]string(nil), v.Args...)
	return v
}

// Baseline is what the first A/A run measured of the baseline, from which
// the injected work per effect is derived.
type Baseline struct {
	Rate float64 // median throughput, req/s
	CPUs int     // the host's CPUs
	// CPUPerReq is the median server + database CPU per request (µs),
	// the primary metric of the efficiency model; 0 when not measured.
	CPUPerReq float64 `json:"cpu_per_req_us,omitempty"`
	// Efficiency says the experiment's verdict is about CPU per request.
	Efficiency bool `json:"efficiency,omitempty"`
	// Scale multiplies every injection (Sizing.Scale; 0 or 1: as modelled).
	Scale float64 `json:"scale,omitempty"`
}

// BaselineOf reads Baseline from an A/A run; ok is false without a
// throughput.
func BaselineOf(run *lab.Run) (Baseline, bool) {
	var rates, cpus []float64
	cpu, _ := lab.MetricByName("cpu")
	for _, t := range stats.TrialsOf(run, NameA, firstScenario(run)) {
		if t.Error == "" && t.Load.Requests > 0 {
			rates = append(rates, t.Load.Rate)
			if c, ok := cpu.Of(t); ok {
				cpus = append(cpus, c)
			}
		}
	}
	if len(rates) == 0 {
		return Baseline{}, false
	}
	b := Baseline{Rate: stats.Median(rates), CPUs: max(run.Host.CPUs, 1), Efficiency: run.Experiment.Load.Model.Efficiency()}
	if len(cpus) > 0 {
		b.CPUPerReq = stats.Median(cpus)
	}
	if b.Efficiency && b.CPUPerReq <= 0 {
		return b, false
	}
	return b, true
}

func firstScenario(run *lab.Run) string {
	if n := stats.ScenarioNames(run); len(n) > 0 {
		return n[0]
	}
	return ""
}

// InjectUs is the CPU work per request that slows a CPU-bound run down by
// effectPct: with every core busy, a request costs CPUs/rate seconds of
// machine CPU; adding δ to it lowers the rate by δ/(cost+δ), so δ =
// cost·e/(1−e). When the machine is not saturated the realised effect is
// smaller: a probe run measures what it realises and Baseline.Scale
// corrects it (Sizing); the tally reports the measured change next to it.
//
// In efficiency mode the verdict is about CPU per request, which the
// injection raises directly: δ = e × (server + database CPU per request).
func InjectUs(effectPct float64, b Baseline) int {
	if effectPct <= 0 || b.Rate <= 0 {
		return 0
	}
	scale := b.Scale
	if scale <= 0 {
		scale = 1
	}
	return max(1, int(math.Round(scale*modelUs(effectPct, b))))
}

// ModelUsPerPct is the model's injected µs per percent at effectPct, before
// any correction (Scale 1): what Refit compares the measured µs per
// percent with.
func ModelUsPerPct(effectPct float64, b Baseline) float64 {
	if effectPct <= 0 || b.Rate <= 0 {
		return 0
	}
	return modelUs(effectPct, b) / effectPct
}

// modelUs is InjectUs's model, unrounded and uncorrected.
func modelUs(effectPct float64, b Baseline) float64 {
	e := effectPct / 100
	if b.Efficiency {
		return b.CPUPerReq * e
	}
	cost := float64(b.CPUs) * 1e6 / b.Rate
	return cost * e / (1 - e)
}

// Outcome is one calibration run's verdict on the primary metric.
type Outcome struct {
	// Design is the trial order the run used when a calibration compares
	// designs (Calibration.Designs); "" when it ran the experiment's own.
	Design      lab.Order     `json:"design,omitempty"`
	EffectPct   float64       `json:"effect_pct"`
	InjectUs    int           `json:"inject_us"`
	Significant bool          `json:"significant"`
	Outcome     stats.Outcome `json:"outcome"`
	// DeltaPct is the measured change of the primary metric (the paired
	// median change when paired), NaN when unknown.
	DeltaPct float64       `json:"delta_pct"`
	P        float64       `json:"p"`
	MDEPct   float64       `json:"mde_pct"`
	Test     string        `json:"test"`
	Rounds   int           `json:"rounds"`
	Took     time.Duration `json:"took_ns"`
	Dir      string        `json:"dir,omitempty"`
	Error    string        `json:"error,omitempty"`
}

// OutcomeOf takes the headline verdict of a calibration run (v, its verdicts).
func OutcomeOf(run *lab.Run, v *stats.Verdicts, effectPct float64, injectUs int) Outcome {
	o := Outcome{EffectPct: effectPct, InjectUs: injectUs, Rounds: stats.Rounds(run), Took: run.Finished.Sub(run.Started),
		DeltaPct: math.NaN(), MDEPct: math.Inf(1), P: 1, Error: run.Interrupted}
	heads := v.Headlines()
	if len(heads) == 0 {
		if o.Error == "" {
			o.Error = "no verdict (no valid trials)"
		}
		return o
	}
	r := heads[0]
	o.Significant, o.Outcome, o.P, o.MDEPct, o.Test = r.Significant, r.Outcome, r.P, r.MDEPct, r.Test
	o.DeltaPct = r.DeltaPct // the paired median change when paired
	return o
}

// Row is the tally of one effect size (of one design, when a calibration
// compares designs).
type Row struct {
	Design    lab.Order `json:"design,omitempty"`
	EffectPct float64   `json:"effect_pct"`
	// InjectUs is the work injected in its runs (the most of them);
	// InjectUsMin the least when they differed (the sizing refitted as runs
	// came in, or parts pooled), else 0.
	InjectUs    int `json:"inject_us"`
	InjectUsMin int `json:"inject_us_min,omitempty"`
	Runs        int `json:"runs"` // runs with a verdict
	Failed      int `json:"failed"`
	// Hits are runs that declared a difference: for the A/A row any
	// significant verdict (a false positive), else "worse" (a detection).
	Hits int `json:"hits"`
	// Rate is Hits/Runs, with a 95 % Wilson interval.
	Rate     float64 `json:"rate"`
	RateLo   float64 `json:"rate_lo"`
	RateHi   float64 `json:"rate_hi"`
	MeanPct  float64 `json:"measured_change_pct"` // mean measured change
	MeanMDE  float64 `json:"mean_mde_pct"`
	MeanRnds float64 `json:"mean_rounds"`
	MeanTook float64 `json:"mean_minutes"`
}

// Tally groups outcomes by design (in the order they first ran) and
// effect (0 = A/A first, then increasing).
func Tally(outs []Outcome) []Row {
	var designs []lab.Order
	byDesign := map[lab.Order][]Outcome{}
	for _, o := range outs {
		if _, ok := byDesign[o.Design]; !ok {
			designs = append(designs, o.Design)
		}
		byDesign[o.Design] = append(byDesign[o.Design], o)
	}
	var rows []Row
	for _, d := range designs {
		rows = append(rows, tallyEffects(d, byDesign[d])...)
	}
	return rows
}

func tallyEffects(design lab.Order, outs []Outcome) []Row {
	by := map[float64][]Outcome{}
	for _, o := range outs {
		by[o.EffectPct] = append(by[o.EffectPct], o)
	}
	effects := make([]float64, 0, len(by))
	for e := range by {
		effects = append(effects, e)
	}
	sort.Float64s(effects)
	var rows []Row
	for _, e := range effects {
		r := Row{Design: design, EffectPct: e}
		var sumPct, sumMDE, sumR, sumT float64
		nPct, nMDE := 0, 0
		lo := 0
		for _, o := range by[e] {
			r.InjectUs = max(r.InjectUs, o.InjectUs)
			if lo == 0 || o.InjectUs < lo {
				lo = o.InjectUs
			}
			if o.Error != "" && o.Rounds == 0 {
				r.Failed++
				continue
			}
			r.Runs++
			if (e == 0 && o.Significant) || (e > 0 && o.Significant && o.Outcome == stats.Worse) {
				r.Hits++
			}
			if !math.IsNaN(o.DeltaPct) {
				sumPct += o.DeltaPct
				nPct++
			}
			if !math.IsInf(o.MDEPct, 0) && !math.IsNaN(o.MDEPct) {
				sumMDE += o.MDEPct
				nMDE++
			}
			sumR += float64(o.Rounds)
			sumT += o.Took.Minutes()
		}
		if lo > 0 && lo < r.InjectUs {
			r.InjectUsMin = lo
		}
		r.MeanPct, r.MeanMDE = mean(sumPct, nPct), mean(sumMDE, nMDE)
		r.MeanRnds, r.MeanTook = mean(sumR, r.Runs), mean(sumT, r.Runs)
		if r.Runs > 0 {
			r.Rate = float64(r.Hits) / float64(r.Runs)
		}
		r.RateLo, r.RateHi = wilson(r.Hits, r.Runs)
		rows = append(rows, r)
	}
	return rows
}

func mean(sum float64, n int) float64 {
	if n == 0 {
		return math.NaN()
	}
	return sum / float64(n)
}

// wilson is the 95 % Wilson score interval of k successes in n.
func wilson(k, n int) (lo, hi float64) {
	if n == 0 {
		return 0, 1
	}
	const z = 1.959964
	p, nf := float64(k)/float64(n), float64(n)
	den := 1 + z*z/nf
	c := (p + z*z/(2*nf)) / den
	h := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / den
	return math.Max(0, c-h), math.Min(1, c+h)
}
