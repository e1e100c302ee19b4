package agent

import "time"

// The v1 messages that carry the lab's values (a host, a variant, what it
// changed, a window's telemetry) have types of their own, with explicit
// JSON names: neither renaming a field of package lab nor changing
// run.json's record types (package record) changes the protocol, so
// drivers and agents of other versions keep talking. Every conversion to
// and from package lab is in convert.go. testdata/golden/*.json holds one
// example of every message; a change to any name fails TestMessagesGolden.
// New fields may be added (a driver ignores fields it does not know);
// renaming or removing one is a v2.

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
	StealCPU   float64   `json:"steal_cpu,omitempty"`    // cores the hypervisor stole (lab.Telemetry.StealCPU)
	SpeedRefNs float64   `json:"speed_ref_ns,omitempty"` // the machine's speed reference (lab.Trial.SpeedRefNs)
}

// HostV1 describes the server machine (GET /v1/describe).
type HostV1 struct {
	Hostname    string `json:"hostname"`
	HostID      string `json:"host_id,omitempty"`
	OS          string `json:"os"`
	Kernel      string `json:"kernel"`
	CPUModel    string `json:"cpu_model"`
	CPUs        int    `json:"cpus"`
	MemoryBytes uint64 `json:"memory_bytes"`
	CgroupMode  string `json:"cgroup_mode,omitempty"`
	PostgreSQL  string `json:"postgresql,omitempty"`
	LabVersion  string `json:"lab_version,omitempty"`
	GoVersion   string `json:"go_version,omitempty"`
}

// TargetInfoV1 describes the server under test (GET /v1/describe).
type TargetInfoV1 struct {
	Binary     string `json:"binary"`
	Version    string `json:"version,omitempty"`
	Reference  bool   `json:"reference"`
	Supervisor string `json:"supervisor"`
	URL        string `json:"url"`
	Unit       string `json:"unit,omitempty"`
	Config     string `json:"config,omitempty"`
}

// VariantV1 is the configuration POST /v1/apply asks for.
type VariantV1 struct {
	Name          string            `json:"name"`
	Description   string            `json:"description,omitempty"`
	Baseline      bool              `json:"baseline,omitempty"`
	PostgREST     map[string]string `json:"postgrest,omitempty"`
	PostgreSQL    map[string]string `json:"postgresql,omitempty"`
	Env           map[string]string `json:"env,omitempty"`
	DropIn        map[string]string `json:"dropin,omitempty"`
	Binary        string            `json:"binary,omitempty"`
	Args          []string          `json:"args,omitempty"`
	PGCPUAffinity string            `json:"pg_cpu_affinity,omitempty"`
	Restart       bool              `json:"restart,omitempty"`
	Unsandboxed   bool              `json:"unsandboxed,omitempty"`
}

// ChangeV1 is one setting a variant changed, as applied.
type ChangeV1 struct {
	Where string `json:"where"`
	Key   string `json:"key"`
	From  string `json:"from"`
	To    string `json:"to"`
}

// UsageV1 is a service's resource use in a window.
type UsageV1 struct {
	CPUSeconds      float64    `json:"cpu_seconds"`
	CPUUtil         float64    `json:"cpu_util"`
	CPUPerRequestUs float64    `json:"cpu_per_request_us"`
	PeakRSS         uint64     `json:"peak_rss"`
	MeanRSS         uint64     `json:"mean_rss"`
	PeakCgroup      uint64     `json:"peak_cgroup,omitempty"`
	Samples         []SampleV1 `json:"samples,omitempty"`
}

// SampleV1 is one telemetry sample: seconds from the window's start, cores
// busy since the previous sample, resident bytes.
type SampleV1 struct {
	T   float64 `json:"t"`
	CPU float64 `json:"cpu"`
	RSS uint64  `json:"rss"`
}

// DBStatsV1 are PostgreSQL's counters per request and PostgREST's pool
// over a window.
type DBStatsV1 struct {
	TransactionsPerRequest float64 `json:"transactions_per_request"`
	StatementsPerRequest   float64 `json:"statements_per_request,omitempty"`
	Rollbacks              int64   `json:"rollbacks"`
	Backends               int     `json:"backends,omitempty"`
	Pool                   *PoolV1 `json:"pool,omitempty"`
	// JWTCache: PostgREST 14.0+'s JWT cache counters over the window
	// (absent for targets without them, and from older agents).
	JWTCache *JWTCacheV1 `json:"jwt_cache,omitempty"`
}

// JWTCacheV1 is PostgREST's JWT cache over a window: the increase of
// pgrst_jwt_cache_{requests,hits,evictions}_total.
type JWTCacheV1 struct {
	Requests  int64 `json:"requests"`
	Hits      int64 `json:"hits"`
	Evictions int64 `json:"evictions"`
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
