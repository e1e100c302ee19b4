package agent

import (
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
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

// ChangeV1 is one change a variant made.
type ChangeV1 struct {
	Where string `json:"where"`
	Key   string `json:"key"`
	From  string `json:"from"`
	To    string `json:"to"`
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

// UsageV1 is a service's resource use in a window.
type UsageV1 struct {
	CPUSeconds      float64    `json:"cpu_seconds"`
	CPUUtil         float64    `json:"cpu_util"`
	CPUPerRequestUs float64    `json:"cpu_per_request_us"`
	PeakRSS         uint64     `json:"peak_rss"`
	MeanRSS         uint64     `json:"mean_rss"`
	Samples         []SampleV1 `json:"samples,omitempty"`
}

// SampleV1 is one telemetry sample: seconds from the window's start, cores
// busy since the previous sample, resident bytes.
type SampleV1 struct {
	T   float64 `json:"t"`
	CPU float64 `json:"cpu"`
	RSS uint64  `json:"rss"`
}

// DBStatsV1 are PostgreSQL's counters per request and PostgREST's pool.
type DBStatsV1 struct {
	TransactionsPerRequest float64 `json:"transactions_per_request"`
	StatementsPerRequest   float64 `json:"statements_per_request,omitempty"`
	Rollbacks              int64   `json:"rollbacks"`
	Backends               int     `json:"backends,omitempty"`
	Pool                   *PoolV1 `json:"pool,omitempty"`
}

// PoolV1 summarises PostgREST's pool metrics over a window.
type PoolV1 struct {
	Size         int   `json:"size"`
	MinAvailable int   `json:"min_available"`
	MaxInUse     int   `json:"max_in_use"`
	MaxWaiting   int   `json:"max_waiting"`
	MaxGauge     int   `json:"max_gauge"`
	Timeouts     int64 `json:"timeouts"`
	Scrapes      int   `json:"scrapes"`
}

// EventV1 is an OOM kill, crash or restart during a window (agent clock,
// RFC 3339 with nanoseconds).
type EventV1 struct {
	T      time.Time `json:"t"`
	Kind   string    `json:"kind"`
	Source string    `json:"source"`
	Detail string    `json:"detail"`
	PID    int       `json:"pid,omitempty"`
}

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
	out := TelemetryV1{Server: usageV1(t.Server), Database: usageV1(t.Database), MachineCPU: t.MachineCPU, SpeedRefNs: t.SpeedRefNs,
		DB: DBStatsV1{TransactionsPerRequest: t.DB.TransactionsPerRequest, StatementsPerRequest: t.DB.StatementsPerRequest,
			Rollbacks: t.DB.Rollbacks, Backends: t.DB.Backends}}
	if p := t.DB.Pool; p != nil {
		out.DB.Pool = &PoolV1{Size: p.Size, MinAvailable: p.MinAvailable, MaxInUse: p.MaxInUse, MaxWaiting: p.MaxWaiting,
			MaxGauge: p.MaxGauge, Timeouts: p.Timeouts, Scrapes: p.Scrapes}
	}
	for _, e := range t.Events {
		out.Events = append(out.Events, EventV1{T: e.T, Kind: string(e.Kind), Source: e.Source, Detail: e.Detail, PID: e.PID})
	}
	return out
}

func (t TelemetryV1) lab() lab.Telemetry {
	out := lab.Telemetry{Server: t.Server.lab(), Database: t.Database.lab(), MachineCPU: t.MachineCPU, SpeedRefNs: t.SpeedRefNs,
		DB: lab.DBStats{TransactionsPerRequest: t.DB.TransactionsPerRequest, StatementsPerRequest: t.DB.StatementsPerRequest,
			Rollbacks: t.DB.Rollbacks, Backends: t.DB.Backends}}
	if p := t.DB.Pool; p != nil {
		out.DB.Pool = &lab.PoolStats{Size: p.Size, MinAvailable: p.MinAvailable, MaxInUse: p.MaxInUse, MaxWaiting: p.MaxWaiting,
			MaxGauge: p.MaxGauge, Timeouts: p.Timeouts, Scrapes: p.Scrapes}
	}
	for _, e := range t.Events {
		out.Events = append(out.Events, lab.Event{T: e.T, Kind: lab.EventKind(e.Kind), Source: e.Source, Detail: e.Detail, PID: e.PID})
	}
	return out
}

func usageV1(u lab.Usage) UsageV1 {
	out := UsageV1{CPUSeconds: u.CPUSeconds, CPUUtil: u.CPUUtil, CPUPerRequestUs: u.CPUPerRequestUs, PeakRSS: u.PeakRSS, MeanRSS: u.MeanRSS}
	for _, s := range u.Samples {
		out.Samples = append(out.Samples, SampleV1(s))
	}
	return out
}

func (u UsageV1) lab() lab.Usage {
	out := lab.Usage{CPUSeconds: u.CPUSeconds, CPUUtil: u.CPUUtil, CPUPerRequestUs: u.CPUPerRequestUs, PeakRSS: u.PeakRSS, MeanRSS: u.MeanRSS}
	for _, s := range u.Samples {
		out.Samples = append(out.Samples, lab.UsageSample(s))
	}
	return out
}
