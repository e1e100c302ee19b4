package lab

import "time"

// RecordSchema is the version of the Run record written to run.json.
const RecordSchema = 1

// Run is everything one `lab run` measured: the raw material for verdicts
// and reports. It is written as run.json in the run's result directory.
type Run struct {
	Schema     int           `json:"schema"`
	Experiment Experiment    `json:"experiment"`
	Started    time.Time     `json:"started"`
	Finished   time.Time     `json:"finished"`
	Host       Host          `json:"host"`
	Target     TargetInfo    `json:"target"`
	Variants   []VariantInfo `json:"variants"`
	Trials     []Trial       `json:"trials"`
	Events     []Event       `json:"events,omitempty"`
	// Agent is set when the server side was a remote `lab agent`.
	Agent *AgentInfo `json:"agent,omitempty"`
	// Capacity is set for the efficiency model: what the baseline's
	// capacity search found per scenario, and the rate the trials used.
	Capacity []Capacity `json:"capacity,omitempty"`
	// Interrupted is set when the run was stopped early (Ctrl-C, error).
	Interrupted string `json:"interrupted,omitempty"`
}

// Interference is how a trial's measured window used the machine's CPU,
// in cores (CPU seconds per second).
type Interference struct {
	Machine   float64 `json:"machine"`
	Server    float64 `json:"server"`
	Database  float64 `json:"database"`
	Generator float64 `json:"generator"`
	// Other is Machine minus the rest: other processes, the kernel's work
	// for them, and whatever the cgroups do not account to the services.
	Other float64 `json:"other"`
	// Share is Other as a share of the machine's CPUs; Flagged says it was
	// above Trials.Interference.
	Share   float64 `json:"share"`
	Flagged bool    `json:"flagged,omitempty"`
}

// Capacity is the efficiency model's capacity search on one scenario.
type Capacity struct {
	Scenario string       `json:"scenario"`
	Variant  string       `json:"variant"` // the baseline
	Found    float64      `json:"found"`   // highest rate within the limit, req/s
	Rate     float64      `json:"rate"`    // the trials' open-model rate: Found × Utilisation
	Curve    []CurvePoint `json:"curve,omitempty"`
}

// AgentInfo says which agent served a run and how its clock was aligned.
type AgentInfo struct {
	URL string `json:"url"`
	// ClockOffset is the agent's clock minus the driver's, measured
	// NTP-style; telemetry times were converted to the driver's clock.
	ClockOffset time.Duration `json:"clock_offset_ns"`
	// ClockError bounds the offset (half the best round trip).
	ClockError time.Duration `json:"clock_error_ns"`
}

// Host describes the server machine.
type Host struct {
	Hostname string `json:"hostname"`
	// HostID identifies the machine (its DMI product UUID or machine-id):
	// hosts with the same HostID share their cores.
	HostID      string `json:"host_id,omitempty"`
	OS          string `json:"os"`
	Kernel      string `json:"kernel"`
	CPUModel    string `json:"cpu_model"`
	CPUs        int    `json:"cpus"`
	MemoryBytes uint64 `json:"memory_bytes"`
	CgroupMode  string `json:"cgroup_mode,omitempty"` // v1, v2, hybrid
	PostgreSQL  string `json:"postgresql,omitempty"`  // server version
	LabVersion  string `json:"lab_version,omitempty"`
	GoVersion   string `json:"go_version,omitempty"`
}

// TargetInfo describes the server under test.
type TargetInfo struct {
	Binary     string `json:"binary"`
	Version    string `json:"version,omitempty"`
	Reference  bool   `json:"reference"`  // postgrest-mini, not PostgREST
	Supervisor string `json:"supervisor"` // systemd-user, systemd-system, direct
	URL        string `json:"url"`
	Unit       string `json:"unit,omitempty"`
	Config     string `json:"config,omitempty"`
}

// VariantInfo is a variant as run, with the changes it made.
type VariantInfo struct {
	Name        string   `json:"name"`
	Description string   `json:"description,omitempty"`
	Baseline    bool     `json:"baseline,omitempty"`
	Changes     []Change `json:"changes,omitempty"`
	// Binary is the executable the variant ran instead of the target's,
	// and Version its `--version` (asked before the run), when it set one.
	Binary  string `json:"binary,omitempty"`
	Version string `json:"version,omitempty"`
}

// Change is one setting a variant changed, as applied.
type Change struct {
	Where string `json:"where"` // postgrest, postgresql, env, dropin, binary; note: what the target made of it
	Key   string `json:"key"`
	From  string `json:"from"`
	To    string `json:"to"`
}

// Trial is one measurement of one variant on one scenario.
type Trial struct {
	Seq      int       `json:"seq"` // order in the run, from 1
	Variant  string    `json:"variant"`
	Scenario string    `json:"scenario"`
	Rep      int       `json:"rep"` // repetition of this (variant, scenario), from 1
	Start    time.Time `json:"start"`
	End      time.Time `json:"end"`
	// ReadyAfter is the time from the restart to the first ready answer.
	ReadyAfter time.Duration `json:"ready_after,omitempty"`

	Load     LoadStats    `json:"load"`
	Series   []Second     `json:"series,omitempty"`
	Curve    []CurvePoint `json:"curve,omitempty"` // search model: rate vs latency
	Server   Usage        `json:"server"`
	Database Usage        `json:"database"`
	DB       DBStats      `json:"db"`
	Events   []Event      `json:"events,omitempty"`
	// Interference is the CPU used on the machine by other work during
	// the trial (nil when the machine's CPU was not measured).
	Interference *Interference `json:"interference,omitempty"`
	// SpeedRefNs is the CPU time, in nanoseconds, of a fixed piece of
	// work (two chases through memory and a run of system calls; the
	// geometric mean of their medians) sampled on the server's machine
	// during the window:
	// higher means the machine was slower (e.g. busier neighbours on a
	// shared host). Verdicts on CPU per request are adjusted with it
	// (lab/stats, "Speed adjustment"). 0 when not measured.
	SpeedRefNs float64 `json:"speed_ref_ns,omitempty"`
	// Profile, GHC and SQL are set when the run profiled (profile = true):
	// CPU profile, GHC runtime statistics (Haskell targets) and the SQL
	// statements sent during the measured window.
	Profile *CPUProfile `json:"profile,omitempty"`
	GHC     *GHCStats   `json:"ghc,omitempty"`
	SQL     []Statement `json:"sql,omitempty"`
	// Error is set when the trial failed (not ready, crashed); such trials
	// are kept in the record but left out of verdicts.
	Error string `json:"error,omitempty"`
}

// LoadStats is the load generator's summary of a trial (warm-up excluded).
type LoadStats struct {
	Model       Model            `json:"model"`
	Requests    int64            `json:"requests"`
	Errors      int64            `json:"errors"`
	Dropped     int64            `json:"dropped"`
	Seconds     float64          `json:"seconds"`
	Rate        float64          `json:"rate"` // completed requests/s
	AskedRate   float64          `json:"asked_rate,omitempty"`
	Connections int              `json:"connections,omitempty"`
	LatencyMs   Percentiles      `json:"latency_ms"` // from intended start (open) or send (closed)
	ServiceMs   Percentiles      `json:"service_ms"` // from actual send
	BytesIn     int64            `json:"bytes_in"`
	BytesOut    int64            `json:"bytes_out"`
	Status      map[string]int64 `json:"status,omitempty"`
	ErrorKinds  map[string]int64 `json:"error_kinds,omitempty"`
	MaxInFlight int              `json:"max_in_flight,omitempty"`
	// ServerTiming is the target's Server-Timing breakdown, when it sent
	// the header (PostgREST's server-timing-enabled).
	ServerTiming *ServerTiming `json:"server_timing,omitempty"`
}

// Percentiles of a latency distribution, in milliseconds.
type Percentiles struct {
	Min  float64 `json:"min"`
	Mean float64 `json:"mean"`
	P50  float64 `json:"p50"`
	P90  float64 `json:"p90"`
	P95  float64 `json:"p95"`
	P99  float64 `json:"p99"`
	P999 float64 `json:"p999"`
	Max  float64 `json:"max"`
}

// Second is one point of a trial's per-second series.
type Second struct {
	T        float64 `json:"t"` // seconds since the measured part began
	Requests int64   `json:"requests"`
	Errors   int64   `json:"errors"`
	P50Ms    float64 `json:"p50_ms"`
	P99Ms    float64 `json:"p99_ms"`
}

// CurvePoint is one step of a search.
type CurvePoint struct {
	AskedRate float64 `json:"asked_rate"`
	Rate      float64 `json:"rate"`
	P99Ms     float64 `json:"p99_ms"`
	ErrorRate float64 `json:"error_rate"`
	Dropped   float64 `json:"dropped_rate"`
	OK        bool    `json:"ok"`
}

// Usage is a service's resource use during a trial's measured window.
type Usage struct {
	CPUSeconds      float64       `json:"cpu_seconds"`
	CPUUtil         float64       `json:"cpu_util"`           // cores busy on average
	CPUPerRequestUs float64       `json:"cpu_per_request_us"` // CPUSeconds*1e6/requests
	PeakRSS         uint64        `json:"peak_rss"`
	MeanRSS         uint64        `json:"mean_rss"`
	Samples         []UsageSample `json:"samples,omitempty"`
}

// UsageSample is one telemetry sample, relative to the trial's start.
type UsageSample struct {
	T   float64 `json:"t"`   // seconds
	CPU float64 `json:"cpu"` // cores busy since the previous sample
	RSS uint64  `json:"rss"`
}

// DBStats are PostgreSQL counters over a trial, per HTTP request.
type DBStats struct {
	TransactionsPerRequest float64 `json:"transactions_per_request"`
	StatementsPerRequest   float64 `json:"statements_per_request,omitempty"`
	Rollbacks              int64   `json:"rollbacks"`
	Backends               int     `json:"backends,omitempty"`
	// Pool is PostgREST's connection pool as its admin server's /metrics
	// showed it during the trial (nil without an admin server).
	Pool *PoolStats `json:"pool,omitempty"`
}

// PoolStats summarises PostgREST's pool metrics (pgrst_db_pool_*) over a
// trial. PostgREST 13's waiting gauge counts requests waiting for or using
// a connection; MaxInUse and MaxWaiting split it (postgrest-mini's gauge
// has the same semantics, so the figures mean the same on both servers).
type PoolStats struct {
	Size         int   `json:"size"`          // pgrst_db_pool_max
	MinAvailable int   `json:"min_available"` // fewest idle connections seen
	MaxInUse     int   `json:"max_in_use"`    // most connections seen held by requests
	MaxWaiting   int   `json:"max_waiting"`   // most requests seen really waiting: waiting - (max - available), at least 0
	MaxGauge     int   `json:"max_gauge"`     // highest raw pgrst_db_pool_waiting (waiting or using)
	Timeouts     int64 `json:"timeouts"`      // acquisitions that timed out (504 PGRST003)
	Scrapes      int   `json:"scrapes"`
}

// EventKind is what happened to a server (Event.Kind).
type EventKind string

// Event kinds, as written in run.json. The telemetry adapter's kinds have
// the same names (a test in the wiring checks it).
const (
	EventOOMKill  EventKind = "oom-kill"  // the kernel's OOM killer killed a server process
	EventCrash    EventKind = "crash"     // a server's main process went away without a restart by systemd
	EventRestart  EventKind = "restart"   // systemd restarted a server
	EventNotReady EventKind = "not-ready" // the target did not pass the readiness gate after a variant was applied
)

// Event is something that happened to the server: an OOM kill, a crash,
// an unexpected restart, a failed readiness gate.
type Event struct {
	T       time.Time `json:"t"`
	Kind    EventKind `json:"kind"`   // EventOOMKill, EventCrash, EventRestart, EventNotReady
	Source  string    `json:"source"` // postgrest, postgresql
	Detail  string    `json:"detail"`
	PID     int       `json:"pid,omitempty"`
	Variant string    `json:"variant,omitempty"`
	Trial   int       `json:"trial,omitempty"`
	Rate    float64   `json:"rate,omitempty"` // request rate at that moment
}

// Fatal reports whether the event ended a server during a trial (an OOM
// kill or a crash): such a trial is repeated, and its figures are suspect.
func (e Event) Fatal() bool { return e.Kind == EventOOMKill || e.Kind == EventCrash }
