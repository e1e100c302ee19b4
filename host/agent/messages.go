package agent

import (
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/record"
)

// The v1 answers that carry the run loop's results have their own types,
// with explicit JSON names, so that renaming a field of package lab does not
// change the protocol: drivers and agents of other versions keep talking.
// testdata/golden/*.json holds one example of every message; a change to
// any name fails TestMessagesGolden. New fields may be added (a driver
// ignores fields it does not know); renaming or removing one is a v2.

// AppliedV1 is the answer to POST /v1/apply (and ErrorBody.Applied).
type AppliedV1 struct {
	Changes      []ChangeV1 `json:"changes"`
	ReadyAfterMs float64    `json:"ready_after_ms"`
}

// TelemetryV1 is the answer to POST /v1/windows/{id}/stop and
// GET /v1/windows/{id}.
type TelemetryV1 struct {
	Server     UsageV1   `json:"server"`
	Database   UsageV1   `json:"database"`
	DB         DBStatsV1 `json:"db"`
	Events     []EventV1 `json:"events,omitempty"`
	MachineCPU float64   `json:"machine_cpu,omitempty"`  // cores busy on the whole machine
	SpeedRefNs float64   `json:"speed_ref_ns,omitempty"` // the machine's speed reference (lab.Trial.SpeedRefNs)
}

// The parts a window's telemetry shares with run.json are run.json's
// (package record): one shape for a service's usage and PostgreSQL's
// counters, on the wire and in the file, with the same rule (fields may be
// added, never renamed).
type (
	ChangeV1  = record.ChangeV1      // one change a variant made
	UsageV1   = record.UsageV1       // a service's resource use in a window
	SampleV1  = record.UsageSampleV1 // seconds from the window's start, cores busy since the previous sample, resident bytes
	DBStatsV1 = record.DBStatsV1     // PostgreSQL's counters per request and PostgREST's pool
	PoolV1    = record.PoolStatsV1   // PostgREST's pool metrics over a window
)

// EventV1 is an OOM kill, crash or restart during a window (agent clock,
// RFC 3339 with nanoseconds): run.json's record of it, without the trial.
type EventV1 = record.ServerEventV1

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
	out := TelemetryV1{Server: record.FromUsage(t.Server), Database: record.FromUsage(t.Database), DB: record.FromDBStats(t.DB),
		MachineCPU: t.MachineCPU, SpeedRefNs: t.SpeedRefNs}
	for _, e := range t.Events {
		out.Events = append(out.Events, record.FromServerEvent(e))
	}
	return out
}

func (t TelemetryV1) lab() lab.Telemetry {
	out := lab.Telemetry{Server: t.Server.Usage(), Database: t.Database.Usage(), DB: t.DB.DBStats(),
		MachineCPU: t.MachineCPU, SpeedRefNs: t.SpeedRefNs}
	for _, e := range t.Events {
		out.Events = append(out.Events, e.Event())
	}
	return out
}
