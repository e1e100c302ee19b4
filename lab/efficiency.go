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
	// capacityConnections is the closed-model run's connections when the
	// experiment gives none: wrk's and postgrest-loadtest's usual 10.
	capacityConnections = 10
)

// findCapacity is the efficiency model's first step: with the baseline
// applied, a short search (open model, within Load.Limit) finds each
// scenario's capacity; the trials then run the open model at
// Load.Utilisation of it, so that CPU per request is measured below
// saturation, where it is steadier than throughput at saturation.
func (s *session) findCapacity(ctx context.Context) error {
	base := s.exp.BaselineVariant()
	lim, util := s.exp.Load.CapacityLimit(), s.exp.Load.EffectiveUtilisation()
	s.Progress.Note(fmt.Sprintf("efficiency: searching the capacity of %s (limit %s)", base.Name, lim))
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
		out, err := s.capacityLoad(ctx, sc, base.Name, s.exp.Load.capacitySearch())
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			return fmt.Errorf("efficiency: capacity search on %s: %w", sc, err)
		}
		found := out.Stats.Rate
		if !(found > 0) {
			return fmt.Errorf("efficiency: capacity search on %s: no rate met the limit (%s)", sc, lim)
		}
		c := Capacity{Scenario: sc, Variant: base.Name, Found: found, Rate: found * util, Curve: out.Curve, Limit: lim}
		if err := s.closedCapacity(ctx, sc, &c); err != nil {
			return err
		}
		s.rates[sc] = c.Rate
		s.run.Capacity = append(s.run.Capacity, c)
		closed := ""
		if c.Closed > 0 {
			closed = fmt.Sprintf(", closed with %d connections %.0f req/s", c.ClosedConnections, c.Closed)
		}
		within := "within the limit"
		if lim.Capped(found) {
			within = "the search's max_rate, met: not pushed beyond"
		}
		s.Progress.Note(fmt.Sprintf("efficiency: %s capacity: open %.0f req/s (%s)%s; trials at %.0f%% of the open figure = %.0f req/s",
			sc, found, within, closed, 100*util, c.Rate))
	}
	// The search is done once: the trials' mean wall time leaves it out.
	s.eta.Skip()
	return nil
}

// closedCapacity measures the scenario's closed-model throughput (a short
// run with the experiment's connections, else capacityConnections), the
// figure wrk gives, so that the report can state the capacity under both
// conditions. A failed run leaves Closed at 0 with a note; only an
// interruption is an error.
func (s *session) closedCapacity(ctx context.Context, sc string, c *Capacity) error {
	ld := s.exp.Load
	ld.Model = ModelClosed
	if ld.Connections <= 0 {
		ld.Connections = capacityConnections
	}
	out, err := s.capacityLoad(ctx, sc, c.Variant, ld)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err != nil {
		s.Progress.Note(fmt.Sprintf("efficiency: closed-model capacity of %s not measured: %v", sc, err))
		return nil
	}
	c.Closed, c.ClosedConnections = out.Stats.Rate, ld.Connections
	return nil
}

// capacitySearch is the load of the efficiency model's capacity search:
// the search model within CapacityLimit.
func (l Load) capacitySearch() Load {
	l.Model, l.Limit = ModelSearch, l.CapacityLimit()
	return l
}

// capacityStep is ld cut to one load of the capacity search: at most
// capacityStep after at most capacityWarmup.
func (l Load) capacityStep() Load {
	l.Duration, l.Warmup = min(l.Duration, capacityStep), min(l.Warmup, capacityWarmup)
	return l
}

// capacityLoad runs one load of the capacity step on scenario sc with
// variant applied (ld.capacityStep), with progress as of each call.
func (s *session) capacityLoad(ctx context.Context, sc, variant string, ld Load) (LoadOutcome, error) {
	ld = ld.capacityStep()
	return s.Loader.Load(ctx, LoadSpec{Scenario: sc, Custom: s.custom(sc), JWTSecret: s.exp.JWTSecret, JWTPrivateKey: s.exp.JWTPrivateKey, Load: ld, Seed: trialSeed(s.exp, sc, 0), CPUs: generatorCPUs(s.exp),
		Progress: func(lp LoadProgress) { s.Progress.Load(s.position(0, variant, sc, 0), lp) }})
}
