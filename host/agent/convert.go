package agent

import (
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// The conversions between the v1 messages (messages.go, api.go) and
// package lab, all of them. Where a message has exactly a lab type's
// fields the compiler checks the conversion: a field added to or renamed
// in package lab fails to build here rather than changing the protocol.

func hostV1(h lab.Host) HostV1 { return HostV1(h) }
func (h HostV1) lab() lab.Host { return lab.Host(h) }

func targetInfoV1(t lab.TargetInfo) TargetInfoV1 { return TargetInfoV1(t) }
func (t TargetInfoV1) lab() lab.TargetInfo       { return lab.TargetInfo(t) }

func variantV1(v lab.Variant) VariantV1 { return VariantV1(v) }
func (v VariantV1) lab() lab.Variant    { return lab.Variant(v) }

func appliedV1(a lab.Applied) AppliedV1 {
	out := AppliedV1{Changes: make([]ChangeV1, len(a.Changes)), ReadyAfterMs: float64(a.ReadyAfter) / float64(time.Millisecond)}
	for i, c := range a.Changes {
		out.Changes[i] = ChangeV1(c)
	}
	return out
}

func (a AppliedV1) lab() lab.Applied {
	out := lab.Applied{Changes: make([]lab.Change, len(a.Changes)), ReadyAfter: time.Duration(a.ReadyAfterMs * float64(time.Millisecond))}
	for i, c := range a.Changes {
		out.Changes[i] = lab.Change(c)
	}
	return out
}

func telemetryV1(t lab.Telemetry) TelemetryV1 {
	out := TelemetryV1{Server: usageV1(t.Server), Database: usageV1(t.Database), DB: dbStatsV1(t.DB),
		MachineCPU: t.MachineCPU, StealCPU: t.StealCPU, SpeedRefNs: t.SpeedRefNs}
	for _, e := range t.Events {
		out.Events = append(out.Events, eventV1(e))
	}
	return out
}

func (t TelemetryV1) lab() lab.Telemetry {
	out := lab.Telemetry{Server: t.Server.lab(), Database: t.Database.lab(), DB: t.DB.lab(),
		MachineCPU: t.MachineCPU, StealCPU: t.StealCPU, SpeedRefNs: t.SpeedRefNs}
	for _, e := range t.Events {
		out.Events = append(out.Events, e.lab())
	}
	return out
}

func usageV1(u lab.Usage) UsageV1 {
	out := UsageV1{CPUSeconds: u.CPUSeconds, CPUUtil: u.CPUUtil, CPUPerRequestUs: u.CPUPerRequestUs, PeakRSS: u.PeakRSS, MeanRSS: u.MeanRSS, PeakCgroup: u.PeakCgroup}
	if u.Samples != nil {
		out.Samples = make([]SampleV1, len(u.Samples))
		for i, s := range u.Samples {
			out.Samples[i] = SampleV1(s)
		}
	}
	return out
}

func (u UsageV1) lab() lab.Usage {
	out := lab.Usage{CPUSeconds: u.CPUSeconds, CPUUtil: u.CPUUtil, CPUPerRequestUs: u.CPUPerRequestUs, PeakRSS: u.PeakRSS, MeanRSS: u.MeanRSS, PeakCgroup: u.PeakCgroup}
	if u.Samples != nil {
		out.Samples = make([]lab.UsageSample, len(u.Samples))
		for i, s := range u.Samples {
			out.Samples[i] = lab.UsageSample(s)
		}
	}
	return out
}

func dbStatsV1(d lab.DBStats) DBStatsV1 {
	out := DBStatsV1{TransactionsPerRequest: d.TransactionsPerRequest, StatementsPerRequest: d.StatementsPerRequest,
		Rollbacks: d.Rollbacks, Backends: d.Backends}
	if p := d.Pool; p != nil {
		v := PoolV1(*p)
		out.Pool = &v
	}
	if j := d.JWTCache; j != nil {
		v := JWTCacheV1(*j)
		out.JWTCache = &v
	}
	return out
}

func (d DBStatsV1) lab() lab.DBStats {
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

// eventV1 is what the server host saw of an event (no trial).
func eventV1(e lab.Event) EventV1 {
	return EventV1{T: e.T, Kind: string(e.Kind), Source: e.Source, Detail: e.Detail, PID: e.PID}
}

// lab is the event in the lab's model, outside any trial.
func (e EventV1) lab() lab.Event {
	return lab.Event{T: e.T, Kind: lab.EventKind(e.Kind), Source: e.Source, Detail: e.Detail, PID: e.PID}
}
