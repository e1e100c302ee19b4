package lab

import (
	"context"
	"errors"
	"fmt"
)

// duetRound measures every scenario with both halves loaded at once, each
// scenario on halves round's variants were applied to just before (as
// variantRound: no scenario inherits another's state).
func (s *session) duetRound(ctx context.Context, round int) error {
	vs := duetVariants(s.exp, round)
	for _, sc := range s.exp.Scenarios {
		s.Progress.Applying(s.position(round, vs[0].Name+" | "+vs[1].Name, "", round))
		var applied [2]Applied
		applyErrs := both(func(i int) error {
			var err error
			applied[i], err = s.Duet.Halves[i].Apply(ctx, partitioned(s.exp, vs[i]))
			return err
		})
		if ctx.Err() != nil {
			return ctx.Err()
		}
		for i := range 2 {
			if IsInternal(applyErrs[i]) {
				return applyErrs[i]
			}
			s.recordVariant(vs[i], applied[i])
		}
		if err := s.duetTrial(ctx, round, vs, sc, applied, applyErrs); err != nil {
			return err
		}
	}
	return nil
}

// duetTrial measures scenario sc on both halves at once: warm-ups, windows
// and loads side by side. A half that failed to apply fails both trials:
// the round's pair is whole or absent.
func (s *session) duetTrial(ctx context.Context, round int, vs [2]Variant, sc string, applied [2]Applied, applyErrs [2]error) error {
	var ts [2]Trial
	var pos [2]func() Position
	for i := range 2 {
		s.seq++
		name, seq := vs[i].Name, s.seq
		pos[i] = func() Position { // each half at its own place: [1/..] and [2/..], not both at the latest
			p := s.position(round, name, sc, round)
			p.Seq = seq
			return p
		}
		ts[i] = Trial{Seq: s.seq, Variant: name, Scenario: sc, Rep: round, Half: Halves[i], Start: s.Now(), ReadyAfter: applied[i].ReadyAfter}
		s.Progress.TrialStarted(pos[i]())
	}
	if err := errors.Join(applyErrs[0], applyErrs[1]); err != nil {
		s.eta.TrialsDone(2)
		for i := range 2 {
			ts[i].Error = "not ready: " + err.Error()
			ts[i].End = s.Now()
			if applyErrs[i] != nil {
				ev := Event{T: ts[i].End, Kind: EventNotReady, Source: "postgrest", Detail: applyErrs[i].Error(), Variant: vs[i].Name, Trial: ts[i].Seq}
				ts[i].Events = append(ts[i].Events, ev)
				s.run.Events = append(s.run.Events, ev)
			}
			s.finished(ts[i], pos[i])
		}
		return nil
	}
	var specs [2]LoadSpec
	for i := range 2 {
		specs[i] = LoadSpec{Scenario: sc, Custom: s.custom(sc), JWTSecret: s.exp.JWTSecret, JWTPrivateKey: s.exp.JWTPrivateKey, Load: s.exp.Load, Seed: trialSeed(s.exp, sc, round), CPUs: generatorCPUs(s.exp)}
		if rate, ok := s.rates[sc]; ok {
			specs[i].Load.Model, specs[i].Load.Rate = ModelOpen, rate
		}
		specs[i].Load = duetLoad(specs[i].Load)
	}
	// Progress comes from half a only: both run the same schedule.
	specs[0].Progress = func(lp LoadProgress) { s.Progress.Load(pos[0](), lp) }

	var wins [2]Window
	var outs [2]LoadOutcome
	var tels [2]Telemetry
	errs := both(func(i int) error { return warmupWith(ctx, s.Duet.Loaders[i], specs[i]) })
	if errs[0] == nil && errs[1] == nil {
		errs = both(func(i int) error {
			var err error
			wins[i], err = s.Duet.Halves[i].Watch(ctx)
			return err
		})
		for i := range 2 { // a window that started must stop, whatever the other did
			if errs[i] == nil && errs[1-i] != nil {
				_, _ = wins[i].Stop(context.WithoutCancel(ctx), 0)
			}
		}
	}
	if errs[0] == nil && errs[1] == nil {
		errs = both(func(i int) error {
			spec := specs[i]
			spec.Load.Warmup = 0
			var err error
			outs[i], err = s.Duet.Loaders[i].Load(ctx, spec)
			tel, werr := wins[i].Stop(context.WithoutCancel(ctx), outs[i].windowRequests())
			if werr != nil && err == nil {
				err = fmt.Errorf("telemetry: %w", werr)
			}
			tels[i] = tel
			return err
		})
		duetInterference(&ts, tels, outs, s.run.Host.CPUs, s.exp.Trials.InterferenceLimit())
	}
	if c, ok := s.Duet.Loaders[0].(Cleaner); ok && ctx.Err() == nil {
		if cerr := c.Cleanup(ctx, specs[0]); cerr != nil {
			s.Progress.Note(fmt.Sprintf("%s/%s: cleanup after the trial: %v", vs[0].Name, sc, cerr))
		}
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	for i := range 2 {
		t := &ts[i]
		t.End = s.Now()
		t.Load, t.Series, t.Curve = outs[i].Stats, outs[i].Series, outs[i].Curve
		tel := tels[i]
		t.Server, t.Database, t.DB, t.Events, t.SpeedRefNs = tel.Server, tel.Database, tel.DB, tel.Events, tel.SpeedRefNs
		if errs[i] != nil {
			t.Error = errs[i].Error()
			if IsInternal(errs[i]) {
				s.done(*t, pos[i])
				return errs[i]
			}
		} else if errs[1-i] != nil {
			t.Error = "duet: the other half failed: " + errs[1-i].Error()
		}
		noteEvents(t, vs[i].Name)
		s.run.Events = append(s.run.Events, t.Events...)
	}
	for i := range 2 { // a crash of one half spoils the pair
		if ts[i].Error == "" && ts[1-i].Error != "" {
			ts[i].Error = "duet: the other half failed: " + ts[1-i].Error
		}
	}
	s.eta.TrialsDone(2) // both halves ran at once: the estimate counts them together
	for i := range 2 {
		s.finished(ts[i], pos[i])
	}
	return nil
}

// duetInterference splits the machine's CPU during a duet trial: both
// targets, both halves' backends and the generator (one process, whose
// CPU either half's load measured whole) are the measured work, the rest
// is other work. Both trials get the same figures.
func duetInterference(ts *[2]Trial, tels [2]Telemetry, outs [2]LoadOutcome, cpus int, limit float64) {
	tel := tels[0]
	if tel.MachineCPU <= 0 {
		tel = tels[1]
	}
	tel.Server.CPUUtil = tels[0].Server.CPUUtil + tels[1].Server.CPUUtil
	tel.Database.CPUUtil = tels[0].Database.CPUUtil + tels[1].Database.CPUUtil
	out := outs[0]
	out.GeneratorCPU = max(outs[0].GeneratorCPU, outs[1].GeneratorCPU)
	in := interference(tel, out, cpus, limit)
	ts[0].Interference, ts[1].Interference = in, in
}
