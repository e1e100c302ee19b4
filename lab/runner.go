package lab

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Runner drives an experiment: for each round, each variant measures each
// scenario on a target it was applied to just before, after a warm-up,
// telemetry recorded; rounds go on until the verdict is decided (after
// Trials.Min) or Trials.Max is reached.
// Whatever happens, the original configuration is restored at the end.
type Runner struct {
	Server Server
	Loader Loader
	// Duet is the two halves of a duet run (trials.order = "duet"); nil
	// otherwise. A duet run describes the machine and searches capacities
	// with half a, and restores both.
	Duet     *Duet
	Progress Progress
	// Decided reports whether the run so far settles every comparison
	// (checked after each round from Trials.Min on). It is required:
	// session.Options sets stats.DecidedFunc, FixedRounds runs Trials.Max
	// rounds.
	Decided func(*Run) bool
	// Settled, when set, reports whether one (variant, scenario)'s
	// figures are settled before the run is: rounds after Trials.Min skip
	// it, so the rounds that remain measure only what is still imprecise
	// (stats.SettledFunc: a one-variant limits run's scenario whose
	// interval is within ±5 %). nil: every round measures everything.
	Settled func(run *Run, variant, scenario string) bool
	// RestoreTimeout bounds the final restore (default 2 minutes).
	RestoreTimeout time.Duration
	// Now is the clock (tests may replace it).
	Now func() time.Time
}

// FixedRounds is the stop rule that never stops early: every run goes to
// Trials.Max rounds.
func FixedRounds(*Run) bool { return false }

// Run runs the experiment. It returns the record even when it fails or is
// interrupted (with Run.Interrupted set), so that what was measured is kept.
//
// A panic in the run (the server side, the loader, the stop rule) does not
// escape: it becomes an *InternalError, the run ends and the original
// configuration is restored as on any error. An internal error a loader
// returns (the load generator's recovered panics) ends the run too.
func (r *Runner) Run(ctx context.Context, e *Experiment) (run *Run, err error) {
	defer func() { // before the restore is set up (Describe)
		if p := recover(); p != nil {
			err = NewInternalError("the run", p)
		}
	}()
	if r.Decided == nil {
		return nil, errors.New("lab.Runner: no Decided stop rule (session.Options gives stats.DecidedFunc; lab.FixedRounds runs trials.max rounds)")
	}
	if errs := e.Validate(); len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if err := r.duetReady(e); err != nil {
		return nil, err
	}
	if err := r.checkVariants(ctx, e); err != nil {
		return nil, err
	}
	if e.Trials.Order == OrderDuet {
		rr := *r
		rr.Server, rr.Loader = r.Duet.Halves[0], r.Duet.Loaders[0]
		r = &rr
	}
	if r.Progress == nil {
		r.Progress = NoProgress{}
	}
	if r.Now == nil {
		r.Now = time.Now
	}
	eta := StartETA(r.Now, e.Load.Warmup+e.Load.Duration)
	run = &Run{Schema: RecordSchema, Experiment: e.Redacted(), Started: eta.Start()}
	host, target, err := r.Server.Describe(ctx)
	if err != nil {
		return nil, fmt.Errorf("describe server: %w", err)
	}
	run.Host, run.Target = host, target
	if err := hostHasCPUs(e, host.CPUs); err != nil {
		return nil, err
	}
	if run.Dataset, err = r.describeDataset(ctx); err != nil {
		return nil, err
	}
	if err := r.checkNeeds(e, run.Dataset); err != nil {
		return nil, err
	}

	defer func() {
		if p := recover(); p != nil {
			err = errors.Join(err, NewInternalError("the run", p))
		}
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), r.restoreTimeout())
		defer cancel()
		r.Progress.Note("restoring the original configuration")
		for _, srv := range r.servers(e) {
			if rerr := srv.Restore(rctx); rerr != nil {
				err = errors.Join(err, fmt.Errorf("restore: %w", rerr))
			}
		}
		run.Finished = r.Now()
		for i := range run.Scenarios {
			sc := &run.Scenarios[i]
			sc.AnswerBytes, sc.Answers = AnswerWeight(run.Trials, sc.Name)
		}
		if err != nil && run.Interrupted == "" {
			run.Interrupted = err.Error()
		}
	}()

	s := &session{Runner: r, run: run, exp: e, eta: eta, infos: map[string]int{}}
	s.describeScenarios()
	if e.Load.Model.Efficiency() {
		if err := s.findCapacity(ctx); err != nil {
			return run, err
		}
	}
	for round := 1; round <= e.Trials.Max; round++ {
		if e.Trials.Order == OrderDuet {
			if err := s.duetRound(ctx, round); err != nil {
				return run, err
			}
		}
		for _, v := range roundOrder(e, round-1) {
			if err := s.variantRound(ctx, round, v); err != nil {
				return run, err
			}
		}
		s.discardInterfered(round)
		if round >= e.Trials.Min && r.Decided(run) {
			r.Progress.Note(fmt.Sprintf("verdict decided after %d rounds", round))
			break
		}
	}
	s.keepInterferedIfTooFew()
	return run, nil
}

// servers are the server sides Run restores: both halves of a duet.
// checkVariants asks each server that can (VariantChecker) whether it can
// apply every variant, as Apply will get it, before anything changes.
func (r *Runner) checkVariants(ctx context.Context, e *Experiment) error {
	vs := make([]Variant, len(e.Variants))
	for i, v := range e.Variants {
		vs[i] = partitioned(e, v)
	}
	if err := checkActions(e, r.Server); err != nil {
		return err
	}
	for _, s := range r.servers(e) {
		if c, ok := s.(VariantChecker); ok {
			if err := c.CheckVariants(ctx, vs); err != nil {
				return fmt.Errorf("before the first trial: %w", err)
			}
		}
	}
	return nil
}

func (r *Runner) servers(e *Experiment) []Server {
	if e.Trials.Order == OrderDuet {
		return r.Duet.Halves[:]
	}
	return []Server{r.Server}
}

func (r *Runner) restoreTimeout() time.Duration {
	if r.RestoreTimeout > 0 {
		return r.RestoreTimeout
	}
	return 2 * time.Minute
}

// session is the state of one Run.
type session struct {
	*Runner
	run *Run
	exp *Experiment
	eta *ETA // elapsed and remaining wall time
	seq int
	// repeats counts the crashed trials repeated (or about to be): trials
	// planned on top of the experiment's, so the estimate still counts them.
	repeats int
	infos   map[string]int // variant name -> index in run.Variants
	// rates are the efficiency model's open-model rates per scenario.
	rates map[string]float64
}

// variantRound measures every scenario once with one variant, each on a
// target the variant was applied to just before (a trial that ends in a
// crash or OOM kill is repeated once). Applied once for all the
// scenarios, the target carried each one's state into the next: a
// runtime keeps the memory it grew to, so the eighth scenario's peak RSS
// was the highest of all eight's, not its own.
func (s *session) variantRound(ctx context.Context, round int, v Variant) error {
	for _, sc := range s.exp.Scenarios {
		if round > s.exp.Trials.Min && s.Settled != nil && s.Settled(s.run, v.Name, sc) {
			s.Progress.Note(fmt.Sprintf("%s/%s: settled after %d rounds, not measured in round %d", v.Name, sc, s.measuredRounds(v.Name, sc), round))
			continue
		}
		s.Progress.Applying(s.position(round, v.Name, "", round))
		applied, err := s.Server.Apply(ctx, partitioned(s.exp, v))
		if ctx.Err() != nil {
			return ctx.Err()
		}
		s.recordVariant(v, applied)
		t, err2 := s.trial(ctx, round, v, sc, applied, err, false)
		if err2 != nil {
			return err2
		}
		if err == nil && repeatable(t) {
			s.Progress.Note(fmt.Sprintf("%s/%s: %s; repeating the trial once", v.Name, sc, t.Error))
			applied, err = s.Server.Apply(ctx, partitioned(s.exp, v))
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if _, err2 := s.trial(ctx, round, v, sc, applied, err, true); err2 != nil {
				return err2
			}
		}
	}
	return nil
}

// measuredRounds counts the rounds that measured (variant, scenario).
func (s *session) measuredRounds(variant, scenario string) int {
	reps := map[int]bool{}
	for _, t := range s.run.Trials {
		if t.Variant == variant && t.Scenario == scenario {
			reps[t.Rep] = true
		}
	}
	return len(reps)
}

// trial measures one (variant, scenario, rep). applyErr is the error of the
// preceding Apply: the trial is then recorded as failed without load. again
// says the trial is the repeat of a crashed one; a first try that crashes
// adds its repeat to the trials planned before Progress hears of it, so
// the estimate counts the repeat.
func (s *session) trial(ctx context.Context, rep int, v Variant, scenario string, applied Applied, applyErr error, again bool) (Trial, error) {
	s.seq++
	// Every callback gets the position as of its call, not of the trial's start.
	pos := func() Position { return s.position(rep, v.Name, scenario, rep) }
	t := Trial{Seq: s.seq, Variant: v.Name, Scenario: scenario, Rep: rep, Start: s.Now(), ReadyAfter: applied.ReadyAfter}
	s.Progress.TrialStarted(pos())
	if applyErr != nil {
		t.Error = "not ready: " + applyErr.Error()
		t.End = s.Now()
		ev := Event{T: t.End, Kind: EventNotReady, Source: "postgrest", Detail: applyErr.Error(), Variant: v.Name, Trial: t.Seq}
		t.Events = append(t.Events, ev)
		s.run.Events = append(s.run.Events, ev)
		s.done(t, pos)
		return t, nil
	}
	spec := LoadSpec{Scenario: scenario, Custom: s.custom(scenario), JWTSecret: s.exp.JWTSecret, JWTPrivateKey: s.exp.JWTPrivateKey, Load: s.exp.Load, Seed: trialSeed(s.exp, scenario, rep), CPUs: generatorCPUs(s.exp),
		Progress: func(lp LoadProgress) { s.Progress.Load(pos(), lp) }}
	if rate, ok := s.rates[scenario]; ok {
		spec.Load.Model, spec.Load.Rate = ModelOpen, rate
	}
	s.searchFrom(&spec, v.Name, scenario)
	var win Window
	var out LoadOutcome
	err := s.warmup(ctx, spec)
	if err == nil {
		win, err = s.Server.Watch(ctx)
	}
	if err == nil {
		spec.Load.Warmup = 0
		t.Measured = s.Now()
		acts := s.actions(ctx)
		out, err = s.Loader.Load(ctx, spec)
		actEvents := acts()
		tel, werr := win.Stop(context.WithoutCancel(ctx), out.windowRequests())
		if werr != nil && err == nil {
			err = fmt.Errorf("telemetry: %w", werr)
		}
		t.Server, t.Database, t.DB, t.Events = tel.Server, tel.Database, tel.DB, append(actEvents, tel.Events...)
		t.Profile, t.GHC, t.SQL, t.SpeedRefNs = tel.Profile, tel.GHC, tel.SQL, tel.SpeedRefNs
		t.Interference = interference(tel, out, s.run.Host.CPUs, s.exp.Trials.InterferenceLimit())
	}
	t.End = s.Now()
	t.Load, t.Series, t.Curve = out.Stats, out.Series, out.Curve
	if out.Sent > t.Load.Requests {
		t.Sent = out.Sent
	}
	if err == nil && s.exp.Load.Model.SearchesEachTrial() {
		if why := implausible(t, ServerCores(s.exp, s.run.Host.CPUs)); why != "" {
			err = errors.New(why)
		}
	}
	if c, ok := s.Loader.(Cleaner); ok && ctx.Err() == nil {
		if cerr := c.Cleanup(ctx, spec); cerr != nil {
			s.Progress.Note(fmt.Sprintf("%s/%s: cleanup after the trial: %v", v.Name, scenario, cerr))
		}
	}
	if ctx.Err() != nil {
		return t, ctx.Err()
	}
	if err != nil {
		t.Error = err.Error()
		if IsInternal(err) { // a bug, not the variant: stop (and restore)
			s.done(t, pos)
			return t, err
		}
	}
	noteEvents(&t, v.Name)
	s.run.Events = append(s.run.Events, t.Events...)
	if !again && repeatable(t) {
		s.repeats++
	}
	s.done(t, pos)
	return t, nil
}

// done records a finished trial: in the run, in the estimate (its wall time
// since the previous trial ended, the apply and restart before it
// included), then to Progress with the position as of now.
func (s *session) done(t Trial, pos func() Position) {
	s.eta.TrialDone()
	s.finished(t, pos)
}

// finished records a trial in the run and tells Progress, leaving the
// estimate to the caller: a duet's halves are counted in it at once
// (ETA.TrialsDone), before either is told.
func (s *session) finished(t Trial, pos func() Position) {
	s.run.Trials = append(s.run.Trials, t)
	s.Progress.TrialDone(pos(), t)
}

// warmup runs the warm-up as a load of its own, before telemetry starts,
// so that the measured window holds only measured requests. A search runs
// its own warm-up before every step.
func (s *session) warmup(ctx context.Context, spec LoadSpec) error {
	return warmupWith(ctx, s.Loader, spec)
}

// warmupWith runs spec's warm-up with ld (see session.warmup).
func warmupWith(ctx context.Context, ld Loader, spec LoadSpec) error {
	if spec.Load.Warmup <= 0 || spec.Load.Model.SearchesEachTrial() {
		return nil
	}
	spec.Load.Duration, spec.Load.Warmup = spec.Load.Warmup, 0
	progress := spec.Progress
	spec.Progress = func(lp LoadProgress) {
		lp.Warmup = true
		if progress != nil {
			progress(lp)
		}
	}
	if _, err := ld.Load(ctx, spec); err != nil {
		return fmt.Errorf("warm-up: %w", err)
	}
	return nil
}

// noteEvents stamps a trial's events with its variant, number and rate
// and, when one ended a server (Event.Fatal), makes the first such the
// trial's error: the death, not what it did to the load (refused
// connections, a failed telemetry read), is why the trial failed.
func noteEvents(t *Trial, variant string) {
	fatal := -1
	for i := range t.Events {
		e := &t.Events[i]
		e.Variant, e.Trial = variant, t.Seq
		if e.Rate == 0 {
			e.Rate = t.Load.Rate
		}
		if fatal < 0 && e.Fatal() {
			fatal = i
		}
	}
	if fatal >= 0 {
		t.Error = string(t.Events[fatal].Kind) + ": " + t.Events[fatal].Detail
	}
}

// repeatable says a measured trial ended in a crash or OOM kill, which
// variantRound repeats once.
func repeatable(t Trial) bool { return t.Error != "" && crashed(t) }

func crashed(t Trial) bool {
	for _, e := range t.Events {
		if e.Fatal() {
			return true
		}
	}
	return false
}

// describeScenarios records what each scenario asks (ScenarioDescriber),
// when the Loader can say; a scenario it cannot describe gets a record of
// its name alone (the trials will say why it cannot be sent), which the
// answers' weight fills at the end.
func (s *session) describeScenarios() {
	d, _ := s.Loader.(ScenarioDescriber)
	for _, sc := range s.exp.Scenarios {
		info := ScenarioInfo{}
		if d != nil {
			if got, err := d.DescribeScenario(LoadSpec{Scenario: sc, Custom: s.custom(sc)}); err == nil {
				info = got
			}
		}
		info.Name = sc
		s.run.Scenarios = append(s.run.Scenarios, info)
	}
}

func (s *session) custom(name string) *Scenario {
	for i := range s.exp.Custom {
		if s.exp.Custom[i].Name == name {
			return &s.exp.Custom[i]
		}
	}
	return nil
}

func (s *session) recordVariant(v Variant, a Applied) {
	if i, ok := s.infos[v.Name]; ok {
		if len(s.run.Variants[i].Changes) == 0 {
			s.run.Variants[i].Changes = a.Changes
		}
		return
	}
	s.infos[v.Name] = len(s.run.Variants)
	s.run.Variants = append(s.run.Variants, VariantInfo{Name: v.Name, Description: v.Description, Baseline: v.Name == s.exp.BaselineVariant().Name, Changes: a.Changes})
}

// position tells where the run is now: the elapsed wall time since the
// start, and the estimate of the remaining one (see ETA.Remaining).
func (s *session) position(round int, variant, scenario string, rep int) Position {
	per := len(s.exp.Variants) * len(s.exp.Scenarios)
	p := Position{Seq: s.seq, MinTrials: per*s.exp.Trials.Min + s.repeats, MaxTrials: per*s.exp.Trials.Max + s.repeats, Round: round,
		Variant: variant, Scenario: scenario, Rep: rep}
	p.Elapsed, p.Remaining = s.eta.Elapsed(), s.eta.Remaining(p.MinTrials, p.MaxTrials)
	p.Earliest, p.Latest = s.eta.Range(p.MinTrials, p.MaxTrials)
	return p
}
