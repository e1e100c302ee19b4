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
	s.Scale = o.EffectPct / r
	switch {
	case s.Scale < MinScale:
		s.Scale, s.Note = MinScale, fmt.Sprintf("correction clamped to ×%g", MinScale)
	case s.Scale > MaxScale:
		s.Scale, s.Note = MaxScale, fmt.Sprintf("correction clamped to ×%g", MaxScale)
	}
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
	if s.Note != "" {
		out += " (" + s.Note + ")"
	}
	return out
}
