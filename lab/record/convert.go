package record

import "github.com/pgrst-lab/pgrst-lab/lab"

// Types whose fields are the same as lab's (names and types) are converted
// directly: a field added to one side only stops the build here, so that
// the record's shape is decided, not changed by accident.

// FromRun is the record of run.
func FromRun(run *lab.Run) RunV1 {
	r := RunV1{
		Schema: run.Schema, Experiment: FromExperiment(run.Experiment), Started: run.Started, Finished: run.Finished,
		Host: FromHost(run.Host), Target: FromTargetInfo(run.Target),
		Variants:       each(run.Variants, variantInfoV1),
		Trials:         each(run.Trials, trialV1),
		Events:         each(run.Events, eventV1),
		Capacity:       each(run.Capacity, capacityV1),
		Interrupted:    run.Interrupted,
		ExperimentHash: run.ExperimentHash,
		Scenarios:      each(run.Scenarios, scenarioInfoV1),
		Dataset:        run.Dataset,
	}
	if a := run.Agent; a != nil {
		r.Agent = &AgentInfoV1{URL: a.URL, ClockOffset: a.ClockOffset, ClockError: a.ClockError}
	}
	return r
}

// Run is the run r records.
func (r RunV1) Run() *lab.Run {
	run := &lab.Run{
		Schema: r.Schema, Experiment: r.Experiment.Experiment(), Started: r.Started, Finished: r.Finished,
		Host: r.Host.Host(), Target: r.Target.TargetInfo(),
		Variants:       each(r.Variants, VariantInfoV1.lab),
		Trials:         each(r.Trials, TrialV1.lab),
		Events:         each(r.Events, EventV1.lab),
		Capacity:       each(r.Capacity, CapacityV1.lab),
		Interrupted:    r.Interrupted,
		ExperimentHash: r.ExperimentHash,
		Scenarios:      each(r.Scenarios, ScenarioInfoV1.lab),
		Dataset:        r.Dataset,
	}
	if a := r.Agent; a != nil {
		run.Agent = &lab.AgentInfo{URL: a.URL, ClockOffset: a.ClockOffset, ClockError: a.ClockError}
	}
	return run
}

// FromExperiment is the record of an experiment (without its JWT secret:
// the record never holds it).
func FromExperiment(e lab.Experiment) ExperimentV1 {
	out := ExperimentV1{
		Name: e.Name, Title: e.Title, Description: e.Description, Target: TargetV1(e.Target),
		Scenarios: e.Scenarios, Custom: each(e.Custom, scenarioV1), Targets: e.Targets, PerLine: e.PerLine, JWTPrivateKey: e.JWTPrivateKey,
		Load: e.Load, Trials: e.Trials, Variants: each(e.Variants, FromVariant),
		Partition: PartitionV1(e.Partition), Cost: costV1(e.Cost), AllowUnknownKeys: e.AllowUnknownKeys, Profile: e.Profile, Actions: e.Actions, Timeline: e.Timeline, Source: e.Source,
	}
	if s := e.Sweep; s != nil {
		out.Sweep = &SweepV1{SweepAxisV1: sweepAxisV1(s.SweepAxis), Cheapest: string(s.Cheapest)}
		if s.Cross != nil {
			c := sweepAxisV1(*s.Cross)
			out.Sweep.Cross = &c
		}
		if s.Template != nil {
			t := FromVariant(*s.Template)
			out.Sweep.Template = &t
		}
	}
	return out
}

// Experiment is the experiment e records.
func (e ExperimentV1) Experiment() lab.Experiment {
	out := lab.Experiment{
		Name: e.Name, Title: e.Title, Description: e.Description, Target: lab.Target(e.Target),
		Scenarios: e.Scenarios, Custom: each(e.Custom, ScenarioV1.lab), Targets: e.Targets, PerLine: e.PerLine, JWTPrivateKey: e.JWTPrivateKey,
		Load: e.Load, Trials: e.Trials, Variants: each(e.Variants, VariantV1.Variant),
		Partition: lab.Partition(e.Partition), Cost: costOf(e.Cost), AllowUnknownKeys: e.AllowUnknownKeys, Profile: e.Profile, Actions: e.Actions, Timeline: e.Timeline, Source: e.Source,
	}
	if s := e.Sweep; s != nil {
		out.Sweep = &lab.Sweep{SweepAxis: s.SweepAxisV1.lab(), Cheapest: lab.Cheapest(s.Cheapest)}
		if s.Cross != nil {
			c := s.Cross.lab()
			out.Sweep.Cross = &c
		}
		if s.Template != nil {
			t := s.Template.Variant()
			out.Sweep.Template = &t
		}
	}
	return out
}

// FromVariant is the record of a variant.
func FromVariant(v lab.Variant) VariantV1 { return VariantV1(v) }

// Variant is the variant v records.
func (v VariantV1) Variant() lab.Variant { return lab.Variant(v) }

func scenarioV1(s lab.Scenario) ScenarioV1 { return ScenarioV1(s) }
func (s ScenarioV1) lab() lab.Scenario     { return lab.Scenario(s) }

func sweepAxisV1(a lab.SweepAxis) SweepAxisV1 {
	return SweepAxisV1{Key: a.Key, Values: each(a.Values, func(s lab.Scalar) string { return string(s) }),
		From: a.From, To: a.To, Step: a.Step, Factor: a.Factor, Unit: a.Unit, Baseline: string(a.Baseline)}
}

func (a SweepAxisV1) lab() lab.SweepAxis {
	return lab.SweepAxis{Key: a.Key, Values: each(a.Values, func(s string) lab.Scalar { return lab.Scalar(s) }),
		From: a.From, To: a.To, Step: a.Step, Factor: a.Factor, Unit: a.Unit, Baseline: lab.Scalar(a.Baseline)}
}

// FromHost is the record of a host (also in calibration.json).
func FromHost(h lab.Host) HostV1 { return HostV1(h) }

// Host is the host h records.
func (h HostV1) Host() lab.Host { return lab.Host(h) }

// FromTargetInfo is the record of a target (also in calibration.json).
func FromTargetInfo(t lab.TargetInfo) TargetInfoV1 { return TargetInfoV1(t) }

// TargetInfo is the target t records.
func (t TargetInfoV1) TargetInfo() lab.TargetInfo { return lab.TargetInfo(t) }

func variantInfoV1(v lab.VariantInfo) VariantInfoV1 {
	out := VariantInfoV1{Name: v.Name, Description: v.Description, Baseline: v.Baseline,
		Changes: each(v.Changes, func(c lab.Change) ChangeV1 { return ChangeV1(c) }), Binary: v.Binary, Version: v.Version}
	if !v.Build.IsZero() {
		b := BuildV1(v.Build)
		out.Build = &b
	}
	return out
}

func (v VariantInfoV1) lab() lab.VariantInfo {
	out := lab.VariantInfo{Name: v.Name, Description: v.Description, Baseline: v.Baseline,
		Changes: each(v.Changes, func(c ChangeV1) lab.Change { return lab.Change(c) }), Binary: v.Binary, Version: v.Version}
	if v.Build != nil {
		out.Build = lab.Build(*v.Build)
	}
	return out
}

func trialV1(t lab.Trial) TrialV1 {
	out := TrialV1{
		Seq: t.Seq, Variant: t.Variant, Scenario: t.Scenario, Rep: t.Rep, Start: t.Start, End: t.End, Measured: t.Measured, ReadyAfter: t.ReadyAfter, Half: t.Half,
		Load:   loadStatsV1(t.Load),
		Series: each(t.Series, func(s lab.Second) SecondV1 { return SecondV1(s) }),
		Curve:  each(t.Curve, curvePointV1), Sent: t.Sent,
		Server: FromUsage(t.Server), Database: FromUsage(t.Database), DB: FromDBStats(t.DB),
		Events: each(t.Events, eventV1), SpeedRefNs: t.SpeedRefNs,
		SQL:   each(t.SQL, func(s lab.Statement) StatementV1 { return StatementV1(s) }),
		Error: t.Error,
	}
	if in := t.Interference; in != nil {
		v := InterferenceV1(*in)
		out.Interference = &v
	}
	if p := t.Profile; p != nil {
		out.Profile = &CPUProfileV1{Samples: p.Samples, PeriodNs: p.PeriodNs, Dropped: p.Dropped, PerfCPUSeconds: p.PerfCPUSeconds,
			Stacks: each(p.Stacks, func(s lab.Stack) StackV1 { return StackV1(s) })}
	}
	if g := t.GHC; g != nil {
		v := GHCStatsV1(*g)
		out.GHC = &v
	}
	return out
}

func (t TrialV1) lab() lab.Trial {
	out := lab.Trial{
		Seq: t.Seq, Variant: t.Variant, Scenario: t.Scenario, Rep: t.Rep, Start: t.Start, End: t.End, Measured: t.Measured, ReadyAfter: t.ReadyAfter, Half: t.Half,
		Load:   t.Load.lab(),
		Series: each(t.Series, func(s SecondV1) lab.Second { return lab.Second(s) }),
		Curve:  each(t.Curve, CurvePointV1.lab), Sent: t.Sent,
		Server: t.Server.Usage(), Database: t.Database.Usage(), DB: t.DB.DBStats(),
		Events: each(t.Events, EventV1.lab), SpeedRefNs: t.SpeedRefNs,
		SQL:   each(t.SQL, func(s StatementV1) lab.Statement { return lab.Statement(s) }),
		Error: t.Error,
	}
	if in := t.Interference; in != nil {
		v := lab.Interference(*in)
		out.Interference = &v
	}
	if p := t.Profile; p != nil {
		out.Profile = &lab.CPUProfile{Samples: p.Samples, PeriodNs: p.PeriodNs, Dropped: p.Dropped, PerfCPUSeconds: p.PerfCPUSeconds,
			Stacks: each(p.Stacks, func(s StackV1) lab.Stack { return lab.Stack(s) })}
	}
	if g := t.GHC; g != nil {
		v := lab.GHCStats(*g)
		out.GHC = &v
	}
	return out
}

func loadStatsV1(l lab.LoadStats) LoadStatsV1 {
	out := LoadStatsV1{Model: string(l.Model), Requests: l.Requests, Errors: l.Errors, Dropped: l.Dropped, Seconds: l.Seconds,
		Rate: l.Rate, AskedRate: l.AskedRate, Connections: l.Connections,
		LatencyMs: PercentilesV1(l.LatencyMs), ServiceMs: PercentilesV1(l.ServiceMs),
		BytesIn: l.BytesIn, BytesOut: l.BytesOut, Status: l.Status, ErrorKinds: l.ErrorKinds, MaxInFlight: l.MaxInFlight}
	if st := l.ServerTiming; st != nil {
		out.ServerTiming = &ServerTimingV1{Requests: st.Requests, Total: PhaseStatV1(st.Total),
			Phases: each(st.Phases, func(p lab.PhaseStat) PhaseStatV1 { return PhaseStatV1(p) })}
	}
	out.Endpoints = each(l.Endpoints, func(e lab.EndpointStats) EndpointV1 { return EndpointV1(e) })
	if f := l.FirstByteMs; f != nil {
		v := PercentilesV1(*f)
		out.FirstByteMs = &v
	}
	return out
}

func (l LoadStatsV1) lab() lab.LoadStats {
	out := lab.LoadStats{Model: lab.Model(l.Model), Requests: l.Requests, Errors: l.Errors, Dropped: l.Dropped, Seconds: l.Seconds,
		Rate: l.Rate, AskedRate: l.AskedRate, Connections: l.Connections,
		LatencyMs: lab.Percentiles(l.LatencyMs), ServiceMs: lab.Percentiles(l.ServiceMs),
		BytesIn: l.BytesIn, BytesOut: l.BytesOut, Status: l.Status, ErrorKinds: l.ErrorKinds, MaxInFlight: l.MaxInFlight}
	if st := l.ServerTiming; st != nil {
		out.ServerTiming = &lab.ServerTiming{Requests: st.Requests, Total: lab.PhaseStat(st.Total),
			Phases: each(st.Phases, func(p PhaseStatV1) lab.PhaseStat { return lab.PhaseStat(p) })}
	}
	out.Endpoints = each(l.Endpoints, func(e EndpointV1) lab.EndpointStats { return lab.EndpointStats(e) })
	if f := l.FirstByteMs; f != nil {
		v := lab.Percentiles(*f)
		out.FirstByteMs = &v
	}
	return out
}

func curvePointV1(p lab.CurvePoint) CurvePointV1 { return CurvePointV1(p) }
func (p CurvePointV1) lab() lab.CurvePoint       { return lab.CurvePoint(p) }

// FromUsage is the record of a service's usage.
func FromUsage(u lab.Usage) UsageV1 {
	return UsageV1{CPUSeconds: u.CPUSeconds, CPUUtil: u.CPUUtil, CPUPerRequestUs: u.CPUPerRequestUs, PeakRSS: u.PeakRSS, MeanRSS: u.MeanRSS, PeakCgroup: u.PeakCgroup,
		Samples: each(u.Samples, func(s lab.UsageSample) UsageSampleV1 { return UsageSampleV1(s) })}
}

// Usage is the usage u records.
func (u UsageV1) Usage() lab.Usage {
	return lab.Usage{CPUSeconds: u.CPUSeconds, CPUUtil: u.CPUUtil, CPUPerRequestUs: u.CPUPerRequestUs, PeakRSS: u.PeakRSS, MeanRSS: u.MeanRSS, PeakCgroup: u.PeakCgroup,
		Samples: each(u.Samples, func(s UsageSampleV1) lab.UsageSample { return lab.UsageSample(s) })}
}

// FromDBStats is the record of PostgreSQL's counters.
func FromDBStats(d lab.DBStats) DBStatsV1 {
	out := DBStatsV1{TransactionsPerRequest: d.TransactionsPerRequest, StatementsPerRequest: d.StatementsPerRequest,
		Rollbacks: d.Rollbacks, Backends: d.Backends}
	if p := d.Pool; p != nil {
		v := PoolStatsV1(*p)
		out.Pool = &v
	}
	if j := d.JWTCache; j != nil {
		v := JWTCacheStatsV1(*j)
		out.JWTCache = &v
	}
	return out
}

// DBStats is the counters d records.
func (d DBStatsV1) DBStats() lab.DBStats {
	out := lab.DBStats{TransactionsPerRequest: d.TransactionsPerRequest, StatementsPerRequest: d.StatementsPerRequest,
		Rollbacks: d.Rollbacks, Backends: d.Backends}
	if p := d.Pool; p != nil {
		v := lab.PoolStats(*p)
		out.Pool = &v
	}
	if j := d.JWTCache; j != nil {
		v := lab.JWTCacheStats(*j)
		out.JWTCache = &v
	}
	return out
}

func eventV1(e lab.Event) EventV1 {
	return EventV1{ServerEventV1: FromServerEvent(e), Variant: e.Variant, Trial: e.Trial, Rate: e.Rate}
}

func (e EventV1) lab() lab.Event {
	out := e.ServerEventV1.Event()
	out.Variant, out.Trial, out.Rate = e.Variant, e.Trial, e.Rate
	return out
}

// FromServerEvent is what the server host saw of an event (no trial).
func FromServerEvent(e lab.Event) ServerEventV1 {
	return ServerEventV1{T: e.T, Kind: string(e.Kind), Source: e.Source, Detail: e.Detail, PID: e.PID, Duration: e.Duration}
}

// Event is the event in the lab's model, outside any trial.
func (e ServerEventV1) Event() lab.Event {
	return lab.Event{T: e.T, Kind: lab.EventKind(e.Kind), Source: e.Source, Detail: e.Detail, PID: e.PID, Duration: e.Duration}
}

func scenarioInfoV1(s lab.ScenarioInfo) ScenarioInfoV1 {
	return ScenarioInfoV1{Name: s.Name, Requests: each(s.Requests, func(r lab.AskedRequest) AskedRequestV1 { return AskedRequestV1(r) }),
		Total: s.Total, AnswerBytes: s.AnswerBytes, Answers: s.Answers}
}

func (s ScenarioInfoV1) lab() lab.ScenarioInfo {
	return lab.ScenarioInfo{Name: s.Name, Requests: each(s.Requests, func(r AskedRequestV1) lab.AskedRequest { return lab.AskedRequest(r) }),
		Total: s.Total, AnswerBytes: s.AnswerBytes, Answers: s.Answers}
}

func capacityV1(c lab.Capacity) CapacityV1 {
	v := CapacityV1{Scenario: c.Scenario, Variant: c.Variant, Found: c.Found, Rate: c.Rate, Curve: each(c.Curve, curvePointV1),
		Closed: c.Closed, ClosedConnections: c.ClosedConnections}
	if c.Limit != (lab.Limit{}) {
		l := LimitV1(c.Limit)
		v.Limit = &l
	}
	return v
}

func (c CapacityV1) lab() lab.Capacity {
	out := lab.Capacity{Scenario: c.Scenario, Variant: c.Variant, Found: c.Found, Rate: c.Rate, Curve: each(c.Curve, CurvePointV1.lab),
		Closed: c.Closed, ClosedConnections: c.ClosedConnections}
	if c.Limit != nil {
		out.Limit = lab.Limit(*c.Limit)
	}
	return out
}

// each maps a slice, keeping nil nil and empty empty (JSON null and []).
func each[T, U any](in []T, f func(T) U) []U {
	if in == nil {
		return nil
	}
	out := make([]U, len(in))
	for i, x := range in {
		out[i] = f(x)
	}
	return out
}

func costV1(c lab.Cost) *CostV1 {
	if !c.Set() {
		return nil
	}
	return &c
}

func costOf(c *CostV1) lab.Cost {
	if c == nil {
		return lab.Cost{}
	}
	return *c
}
