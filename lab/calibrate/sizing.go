package calibrate

import (
	"fmt"
	"math"
)

// Bounds on a sizing probe's correction: beyond them the probe says more
// about its own noise than about the injection.
const (
	MinScale = 0.5
	MaxScale = 4.0
)

// Sizing is what a probe run (A/A′ at the largest effect, not tallied)
// measured of the injection before the counted runs: InjectUs(EffectPct)
// realised RealisedPct of the primary metric, so every injection is
// multiplied by Scale = EffectPct/RealisedPct (within MinScale..MaxScale),
// and "3 %" means 3 % of the headline metric, not 3 % of a model of it.
type Sizing struct {
	EffectPct   float64 `json:"effect_pct"`
	InjectUs    int     `json:"inject_us"`
	RealisedPct float64 `json:"realised_pct"` // in the worse direction; NaN when unknown
	Scale       float64 `json:"scale"`
	// Note says why Scale is 1 or clamped, "" otherwise.
	Note string `json:"note,omitempty"`
	Dir  string `json:"dir,omitempty"`
	// FitRuns is how many effect runs (the probe's included) the last
	// Refit pooled, UsPerPct the injected µs one percent took in them; 0
	// before the first refit.
	FitRuns  int     `json:"fit_runs,omitempty"`
	UsPerPct float64 `json:"us_per_pct,omitempty"`
}

// SizeFrom reads a probe's outcome: better is the primary metric's
// direction (+1: higher is better, so an injection lowers it).
func SizeFrom(o Outcome, better int) Sizing {
	s := Sizing{EffectPct: o.EffectPct, InjectUs: o.InjectUs, RealisedPct: math.NaN(), Scale: 1, Dir: o.Dir}
	if math.IsNaN(o.DeltaPct) || o.EffectPct <= 0 {
		s.Note = "the probe measured no change: injections as modelled"
		return s
	}
	r := o.DeltaPct
	if better > 0 {
		r = -r
	}
	s.RealisedPct = r
	if r <= 0 {
		s.Note = fmt.Sprintf("the probe's change (%+.1f%%) is not in the injection's direction: injections as modelled", o.DeltaPct)
		return s
	}
	s.Scale, s.Note = clampScale(o.EffectPct / r)
	return s
}

// clampScale bounds a correction to MinScale..MaxScale, saying when it did.
func clampScale(scale float64) (float64, string) {
	switch {
	case scale < MinScale:
		return MinScale, fmt.Sprintf("correction clamped to ×%g", MinScale)
	case scale > MaxScale:
		return MaxScale, fmt.Sprintf("correction clamped to ×%g", MaxScale)
	}
	return scale, ""
}

// Refit sizes the injections again from every effect run so far: the
// probe (s) and the counted runs in outs. The realised change is about
// proportional to the injected work, so a regression through the origin
// (change = k × µs, least squares: a run weighs by its µs squared) gives
// the µs that one percent takes, and Scale is that over the model's µs per
// percent (modelUsPerPct, at Scale 1). A probe is one run, whose change
// is off by its noise (on real PostgREST a 3 % probe realised 4.1 and
// 4.5 % where the counted runs then showed 3.3 and 4.0 %, injections 30 %
// too large): pooled, the sizing converges as runs accumulate. better is
// the primary metric's direction (SizeFrom); runs without a measured
// change are left out.
func Refit(s Sizing, outs []Outcome, better int, modelUsPerPct float64) Sizing {
	var sxy, sxx float64
	n := 0
	add := func(us int, realised float64) {
		if us > 0 && !math.IsNaN(realised) && !math.IsInf(realised, 0) {
			x := float64(us)
			sxy += x * realised
			sxx += x * x
			n++
		}
	}
	add(s.InjectUs, s.RealisedPct)
	for _, o := range outs {
		if o.EffectPct <= 0 || (o.Error != "" && o.Rounds == 0) {
			continue
		}
		r := o.DeltaPct
		if better > 0 {
			r = -r
		}
		add(o.InjectUs, r)
	}
	if n < 2 || !(modelUsPerPct > 0) {
		return s // the probe alone: SizeFrom said it
	}
	s.FitRuns = n
	if sxy <= 0 {
		s.UsPerPct = 0
		s.Note = fmt.Sprintf("the %d effect runs changed the metric against the injection's direction: sizing kept", n)
		return s
	}
	s.UsPerPct = sxx / sxy // 1/k
	s.Scale, s.Note = clampScale(s.UsPerPct / modelUsPerPct)
	return s
}

// String is the sizing for people, e.g. "sized by a probe: 10% (412 µs)
// realised 7.6%: injections ×1.32".
func (s Sizing) String() string {
	real := "?"
	if !math.IsNaN(s.RealisedPct) {
		real = fmt.Sprintf("%.1f%%", s.RealisedPct)
	}
	out := fmt.Sprintf("sized by a probe: %g%% (%d µs) realised %s: injections ×%.2f", s.EffectPct, s.InjectUs, real, s.Scale)
	if s.FitRuns > 1 && s.UsPerPct > 0 {
		out = fmt.Sprintf("sized by %d effect runs (the probe's %g%% (%d µs) realised %s): 1%% takes %.1f µs, injections ×%.2f",
			s.FitRuns, s.EffectPct, s.InjectUs, real, s.UsPerPct, s.Scale)
	}
	if s.Note != "" {
		out += " (" + s.Note + ")"
	}
	return out
}
