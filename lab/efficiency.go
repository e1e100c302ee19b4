package lab

import (
	"context"
	"fmt"
	"time"
)

// Bounds of each step of the efficiency model's capacity search: it only
// has to find the knee, not measure it well.
const (
	capacityStep   = 3 * time.Second
	capacityWarmup = time.Second
)

// findCapacity is the efficiency model's first step: with the baseline
// applied, a short search (open model, within Load.Limit) finds each
// scenario's capacity; the trials then run the open model at
// Load.Utilisation of it, so that CPU per request is measured below
// saturation, where it is steadier than throughput at saturation.
func (s *session) findCapacity(ctx context.Context) error {
	base := s.exp.BaselineVariant()
	lim, util := s.exp.Load.CapacityLimit(), s.exp.Load.EffectiveUtilisation()
	s.Progress.Note(fmt.Sprintf("efficiency: searching the capacity of %s (limit %s)", base.Name, limitDesc(lim)))
	applied, err := s.Server.Apply(ctx, partitioned(s.exp, base))
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err != nil {
		return fmt.Errorf("efficiency: apply %s for the capacity search: %w", base.Name, err)
	}
	s.recordVariant(base, applied)
	s.rates = map[string]float64{}
	for _, sc := range s.exp.Scenarios {
		ld := s.exp.Load
		ld.Model, ld.Limit = ModelSearch, lim
		ld.Duration, ld.Warmup = min(ld.Duration, capacityStep), min(ld.Warmup, capacityWarmup)
		out, err := s.Loader.Load(ctx, LoadSpec{Scenario: sc, Custom: s.custom(sc), JWTSecret: s.exp.JWTSecret, Load: ld, Seed: trialSeed(s.exp, sc, 0), CPUs: generatorCPUs(s.exp),
			Progress: func(lp LoadProgress) { s.Progress.Load(s.position(0, base.Name, sc, 0), lp) }})
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			return fmt.Errorf("efficiency: capacity search on %s: %w", sc, err)
		}
		found := out.Stats.Rate
		if !(found > 0) {
			return fmt.Errorf("efficiency: capacity search on %s: no rate met the limit (%s)", sc, limitDesc(lim))
		}
		c := Capacity{Scenario: sc, Variant: base.Name, Found: found, Rate: found * util, Curve: out.Curve}
		s.rates[sc] = c.Rate
		s.run.Capacity = append(s.run.Capacity, c)
		s.Progress.Note(fmt.Sprintf("efficiency: %s capacity %.0f req/s; trials at %.0f%% = %.0f req/s", sc, found, 100*util, c.Rate))
	}
	// The search is done once: the trials' mean wall time leaves it out.
	s.eta.Skip()
	return nil
}

func limitDesc(l Limit) string {
	d := ""
	if l.P99 > 0 {
		d += fmt.Sprintf("p99 <= %v, ", l.P99)
	}
	return d + fmt.Sprintf("errors <= %g%%, dropped <= %g%%", 100*l.MaxErrors, 100*l.MaxDropped)
}
