package record

import (
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// The v1 record: run.json as `lab run` has written it since schema 1. The
// types mirror lab.Run and its parts with explicit JSON names, so that
// renaming a field of package lab does not change the file: old run.json
// files keep loading and new ones stay readable by older labs.
// testdata/golden/run.json holds one record with every field set; a change
// to any name fails TestGolden. New fields may be added (readers ignore
// fields they do not know); renaming or removing one is a schema 2.
// LoadV1, LimitV1 and TrialsV1 alone are package lab's own types
// (lab.Load, lab.Limit and lab.Trials carry their run.json names as json
// tags, beside the experiment file's toml names): one declaration of the
// load and trials settings for the file, the model and the record.

// RunV1 is run.json: everything one `lab run` measured.
type RunV1 struct {
	Schema      int             `json:"schema"`
	Experiment  ExperimentV1    `json:"experiment"`
	Started     time.Time       `json:"started"`
	Finished    time.Time       `json:"finished"`
	Host        HostV1          `json:"host"`
	Target      TargetInfoV1    `json:"target"`
	Variants    []VariantInfoV1 `json:"variants"`
	Trials      []TrialV1       `json:"trials"`
	Events      []EventV1       `json:"events,omitempty"`
	Agent       *AgentInfoV1    `json:"agent,omitempty"`
	Capacity    []CapacityV1    `json:"capacity,omitempty"`
	Interrupted string          `json:"interrupted,omitempty"`
	// ExperimentHash identifies the experiment's content (ExperimentHash).
	ExperimentHash string `json:"experiment_hash,omitempty"`
	// Scenarios came later: older records lack them.
	Scenarios []ScenarioInfoV1 `json:"scenarios,omitempty"`
	// Dataset came later: older records lack it.
	Dataset *DatasetV1 `json:"dataset,omitempty"`
}

// DatasetV1 is the data set at the run's start (one declaration,
// lab.Dataset, whose json tags are this record's).
type DatasetV1 = lab.Dataset

// IDRangeV1 is an id a request asks for (one declaration, lab.IDRange).
type IDRangeV1 = lab.IDRange

// ScenarioInfoV1 is what the run asked of one scenario and what the
// answers weighed (lab.ScenarioInfo).
type ScenarioInfoV1 struct {
	Name     string           `json:"name"`
	Requests []AskedRequestV1 `json:"requests,omitempty"`
	Total    int              `json:"total_requests,omitempty"`
	// AnswerBytes is the mean bytes received per answer, headers
	// included, over Answers answers.
	AnswerBytes float64 `json:"answer_bytes_mean,omitempty"`
	Answers     int64   `json:"answers,omitempty"`
}

// AskedRequestV1 is one request of a scenario as the load generator sent
// it (lab.AskedRequest): the path with its template fields as written.
type AskedRequestV1 struct {
	Method     string      `json:"method"`
	Path       string      `json:"path"`
	BodyBytes  int         `json:"body_bytes,omitempty"`
	BodyVaries bool        `json:"body_varies,omitempty"`
	IDs        []IDRangeV1 `json:"ids,omitempty"`
}

// ExperimentV1 is the experiment as run (lab.Experiment.Redacted: the JWT
// secret is never written).
type ExperimentV1 struct {
	Name             string       `json:"name"`
	Title            string       `json:"title"`
	Description      string       `json:"description,omitempty"`
	Target           TargetV1     `json:"target"`
	Scenarios        []string     `json:"scenarios"`
	Custom           []ScenarioV1 `json:"custom,omitempty"`
	Targets          string       `json:"targets,omitempty"`
	PerLine          bool         `json:"per_line,omitempty"`
	JWTPrivateKey    string       `json:"jwt_private_key,omitempty"` // its path; the key itself is never recorded
	Load             LoadV1       `json:"load"`
	Trials           TrialsV1     `json:"trials"`
	Variants         []VariantV1  `json:"variants"`
	Sweep            *SweepV1     `json:"sweep,omitempty"`
	Partition        PartitionV1  `json:"partition,omitempty"`
	Cost             *CostV1      `json:"cost,omitempty"`
	AllowUnknownKeys bool         `json:"allow_unknown_keys,omitempty"`
	Profile          bool         `json:"profile,omitempty"`
	Actions          []ActionV1   `json:"actions,omitempty"`
	Timeline         bool         `json:"timeline,omitempty"`
	Source           string       `json:"source,omitempty"`
}

// ActionV1 is one [[action]] (one declaration, lab.Action).
type ActionV1 = lab.Action

// TargetV1 is the experiment's [target].
type TargetV1 struct {
	Stack    string `json:"stack,omitempty"`
	Unit     string `json:"unit,omitempty"`
	Config   string `json:"config,omitempty"`
	URL      string `json:"url,omitempty"`
	AdminURL string `json:"admin_url,omitempty"`
	PGUnit   string `json:"pg_unit,omitempty"`
	PGURI    string `json:"pg_uri,omitempty"`
}

// CostV1 is the experiment's [cost]: host prices (one declaration, lab.Cost).
type CostV1 = lab.Cost

// PartitionV1 is the experiment's [partition]: CPU lists.
type PartitionV1 struct {
	Generator  string `json:"generator,omitempty"`
	PostgREST  string `json:"postgrest,omitempty"`
	PostgreSQL string `json:"postgresql,omitempty"`
}

// ScenarioV1 is a user-defined scenario.
type ScenarioV1 struct {
	Name     string            `json:"name"`
	Method   string            `json:"method"`
	Path     string            `json:"path"`
	Header   map[string]string `json:"header,omitempty"`
	Body     string            `json:"body,omitempty"`
	BodyFile string            `json:"body_file,omitempty"`
	Expect   int               `json:"expect,omitempty"`
	Weight   float64           `json:"weight,omitempty"`
	Targets  string            `json:"targets,omitempty"`
	Line     int               `json:"line,omitempty"`
}

// LoadV1 is the experiment's [load]; durations in nanoseconds. It is the
// model's own type (lab.Load, whose json tags are run.json's names), not a
// copy: the golden tests hold its encoding still.
type LoadV1 = lab.Load

// LimitV1 is what a search must meet: lab.Limit, as LoadV1 is lab.Load.
type LimitV1 = lab.Limit

// TrialsV1 is the experiment's [trials]: lab.Trials, whose json tags are
// this record's (frozen by the golden tests), as LoadV1 is lab.Load.
type TrialsV1 = lab.Trials

// VariantV1 is one configuration of the server under test, as the file
// (or the sweep) gave it.
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

// SweepV1 is the experiment's [sweep]; the first axis' fields are inline.
type SweepV1 struct {
	SweepAxisV1
	Cross    *SweepAxisV1 `json:"cross,omitempty"`
	Cheapest string       `json:"cheapest,omitempty"`
	Template *VariantV1   `json:"template,omitempty"`
}

// SweepAxisV1 is one swept key and its values (as text).
type SweepAxisV1 struct {
	Key      string   `json:"key"`
	Values   []string `json:"values,omitempty"`
	From     float64  `json:"from,omitempty"`
	To       float64  `json:"to,omitempty"`
	Step     float64  `json:"step,omitempty"`
	Factor   float64  `json:"factor,omitempty"`
	Unit     string   `json:"unit,omitempty"`
	Baseline string   `json:"baseline"`
}

// HostV1 describes the server machine.
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

// TargetInfoV1 describes the server under test.
type TargetInfoV1 struct {
	Binary     string `json:"binary"`
	Version    string `json:"version,omitempty"`
	Reference  bool   `json:"reference"`
	Supervisor string `json:"supervisor"`
	URL        string `json:"url"`
	Unit       string `json:"unit,omitempty"`
	Config     string `json:"config,omitempty"`
}

// VariantInfoV1 is a variant as run, with the changes it made.
type VariantInfoV1 struct {
	Name        string     `json:"name"`
	Description string     `json:"description,omitempty"`
	Baseline    bool       `json:"baseline,omitempty"`
	Changes     []ChangeV1 `json:"changes,omitempty"`
	Binary      string     `json:"binary,omitempty"`
	Version     string     `json:"version,omitempty"`
	Build       *BuildV1   `json:"build,omitempty"`
}

// BuildV1 is what a variant's binary was built from (lab.Build).
type BuildV1 struct {
	Version string `json:"version,omitempty"`
	Commit  string `json:"commit,omitempty"`
	Repo    string `json:"repo,omitempty"`
	Ref     string `json:"ref,omitempty"`
}

// ChangeV1 is one setting a variant changed, as applied.
type ChangeV1 struct {
	Where string `json:"where"`
	Key   string `json:"key"`
	From  string `json:"from"`
	To    string `json:"to"`
}

// TrialV1 is one measurement of one variant on one scenario.
type TrialV1 struct {
	Seq          int             `json:"seq"`
	Variant      string          `json:"variant"`
	Scenario     string          `json:"scenario"`
	Rep          int             `json:"rep"`
	Start        time.Time       `json:"start"`
	End          time.Time       `json:"end"`
	Measured     time.Time       `json:"measured,omitzero"`
	ReadyAfter   time.Duration   `json:"ready_after,omitempty"`
	Half         string          `json:"half,omitempty"`
	Load         LoadStatsV1     `json:"load"`
	Series       []SecondV1      `json:"series,omitempty"`
	Curve        []CurvePointV1  `json:"curve,omitempty"`
	Sent         int64           `json:"sent,omitempty"` // a search: the requests the window saw, every step's
	Server       UsageV1         `json:"server"`
	Database     UsageV1         `json:"database"`
	DB           DBStatsV1       `json:"db"`
	Events       []EventV1       `json:"events,omitempty"`
	Interference *InterferenceV1 `json:"interference,omitempty"`
	SpeedRefNs   float64         `json:"speed_ref_ns,omitempty"`
	Profile      *CPUProfileV1   `json:"profile,omitempty"`
	GHC          *GHCStatsV1     `json:"ghc,omitempty"`
	SQL          []StatementV1   `json:"sql,omitempty"`
	Error        string          `json:"error,omitempty"`
}

// LoadStatsV1 is the load generator's summary of a trial.
type LoadStatsV1 struct {
	Model        string           `json:"model"`
	Requests     int64            `json:"requests"`
	Errors       int64            `json:"errors"`
	Dropped      int64            `json:"dropped"`
	Seconds      float64          `json:"seconds"`
	Rate         float64          `json:"rate"` // successful answers/s (lab.LoadStats.Rate)
	AskedRate    float64          `json:"asked_rate,omitempty"`
	Connections  int              `json:"connections,omitempty"`
	LatencyMs    PercentilesV1    `json:"latency_ms"` // of the successful answers
	ServiceMs    PercentilesV1    `json:"service_ms"`
	FirstByteMs  *PercentilesV1   `json:"first_byte_ms,omitempty"`
	BytesIn      int64            `json:"bytes_in"`
	BytesOut     int64            `json:"bytes_out"`
	Status       map[string]int64 `json:"status,omitempty"`
	ErrorKinds   map[string]int64 `json:"error_kinds,omitempty"`
	MaxInFlight  int              `json:"max_in_flight,omitempty"`
	ServerTiming *ServerTimingV1  `json:"server_timing,omitempty"`
	Endpoints    []EndpointV1     `json:"endpoints,omitempty"`
}

// EndpointV1 is one request of a trial with one answer status
// (lab.EndpointStats).
type EndpointV1 struct {
	Name     string  `json:"name"`
	Method   string  `json:"method"`
	Path     string  `json:"path"`
	Status   int     `json:"status"`
	Line     int     `json:"line,omitempty"`
	Requests int64   `json:"requests"`
	Errors   int64   `json:"errors"`
	MinMs    float64 `json:"min_ms"`
	P50Ms    float64 `json:"p50_ms"`
	P90Ms    float64 `json:"p90_ms"`
	P95Ms    float64 `json:"p95_ms"`
	P99Ms    float64 `json:"p99_ms"`
	MaxMs    float64 `json:"max_ms"`
}

// PercentilesV1 of a latency distribution, in milliseconds.
type PercentilesV1 struct {
	Min  float64 `json:"min"`
	Mean float64 `json:"mean"`
	P50  float64 `json:"p50"`
	P90  float64 `json:"p90"`
	P95  float64 `json:"p95"`
	P99  float64 `json:"p99"`
	P999 float64 `json:"p999"`
	Max  float64 `json:"max"`
}

// ServerTimingV1 is a trial's Server-Timing breakdown.
type ServerTimingV1 struct {
	Requests int64         `json:"requests"`
	Phases   []PhaseStatV1 `json:"phases"`
	Total    PhaseStatV1   `json:"total"`
}

// PhaseStatV1 is one Server-Timing phase, in milliseconds.
type PhaseStatV1 struct {
	Name   string  `json:"name"`
	MinMs  float64 `json:"min_ms"`
	MeanMs float64 `json:"mean_ms"`
	P50Ms  float64 `json:"p50_ms"`
	P99Ms  float64 `json:"p99_ms"`
}

// SecondV1 is one point of a trial's per-second series.
type SecondV1 struct {
	T        float64 `json:"t"`
	Requests int64   `json:"requests"`
	Errors   int64   `json:"errors"`
	P50Ms    float64 `json:"p50_ms"`
	P99Ms    float64 `json:"p99_ms"`
	MaxMs    float64 `json:"max_ms,omitempty"`
	Dropped  int64   `json:"dropped,omitempty"`
}

// CurvePointV1 is one step of a search.
type CurvePointV1 struct {
	AskedRate float64 `json:"asked_rate"`
	Rate      float64 `json:"rate"`
	P99Ms     float64 `json:"p99_ms"`
	ErrorRate float64 `json:"error_rate"`
	Dropped   float64 `json:"dropped_rate"`
	OK        bool    `json:"ok"`
	// A sustained search's (lab.CurvePoint says what each is).
	Kind        string  `json:"kind,omitempty"`
	Connections int     `json:"connections,omitempty"`
	Share       float64 `json:"share,omitempty"`
	P50Ms       float64 `json:"p50_ms,omitempty"`
	P95Ms       float64 `json:"p95_ms,omitempty"`
	Elapsed     float64 `json:"elapsed,omitempty"`
	Why         string  `json:"why,omitempty"`
}

// UsageV1 is a service's resource use during a trial's measured window.
type UsageV1 struct {
	CPUSeconds      float64         `json:"cpu_seconds"`
	CPUUtil         float64         `json:"cpu_util"`
	CPUPerRequestUs float64         `json:"cpu_per_request_us"`
	PeakRSS         uint64          `json:"peak_rss"`
	MeanRSS         uint64          `json:"mean_rss"`
	PeakCgroup      uint64          `json:"peak_cgroup,omitempty"` // came later: older records lack it
	Samples         []UsageSampleV1 `json:"samples,omitempty"`
}

// UsageSampleV1 is one telemetry sample, relative to the trial's start.
type UsageSampleV1 struct {
	T   float64 `json:"t"`
	CPU float64 `json:"cpu"`
	RSS uint64  `json:"rss"`
}

// DBStatsV1 are PostgreSQL counters over a trial, per HTTP request.
type DBStatsV1 struct {
	TransactionsPerRequest float64      `json:"transactions_per_request"`
	StatementsPerRequest   float64      `json:"statements_per_request,omitempty"`
	Rollbacks              int64        `json:"rollbacks"`
	Backends               int          `json:"backends,omitempty"`
	Pool                   *PoolStatsV1 `json:"pool,omitempty"`
	// JWTCache was added with PostgREST 14's counters: absent from older
	// records and for targets without them.
	JWTCache *JWTCacheStatsV1 `json:"jwt_cache,omitempty"`
}

// JWTCacheStatsV1 is PostgREST's JWT cache over a trial: the increase of
// pgrst_jwt_cache_{requests,hits,evictions}_total.
type JWTCacheStatsV1 struct {
	Requests  int64 `json:"requests"`
	Hits      int64 `json:"hits"`
	Evictions int64 `json:"evictions"`
}

// PoolStatsV1 summarises PostgREST's pool metrics over a trial.
type PoolStatsV1 struct {
	Size         int   `json:"size"`
	MinAvailable int   `json:"min_available"`
	MaxInUse     int   `json:"max_in_use"`
	MaxWaiting   int   `json:"max_waiting"`
	MaxGauge     int   `json:"max_gauge"`
	Timeouts     int64 `json:"timeouts"`
	Scrapes      int   `json:"scrapes"`
}

// EventV1 is something that happened to the server, with the trial it
// happened in.
type EventV1 struct {
	ServerEventV1
	Variant string  `json:"variant,omitempty"`
	Trial   int     `json:"trial,omitempty"`
	Rate    float64 `json:"rate,omitempty"`
}

// ServerEventV1 is an OOM kill, crash or restart as the server host saw
// it.
type ServerEventV1 struct {
	T      time.Time `json:"t"`
	Kind   string    `json:"kind"`
	Source string    `json:"source"`
	Detail string    `json:"detail"`
	PID    int       `json:"pid,omitempty"`
	// Duration is how long it lasted (an action, a schema cache load).
	Duration time.Duration `json:"duration,omitempty"`
}

// InterferenceV1 is how a trial's window used the machine's CPU, in cores.
type InterferenceV1 struct {
	Machine   float64 `json:"machine"`
	Server    float64 `json:"server"`
	Database  float64 `json:"database"`
	Generator float64 `json:"generator"`
	Other     float64 `json:"other"`
	Share     float64 `json:"share"`
	Flagged   bool    `json:"flagged,omitempty"`
	Steal     float64 `json:"steal,omitempty"`
}

// CapacityV1 is the efficiency model's capacity search on one scenario.
type CapacityV1 struct {
	Scenario string         `json:"scenario"`
	Variant  string         `json:"variant"`
	Found    float64        `json:"found"`
	Rate     float64        `json:"rate"`
	Curve    []CurvePointV1 `json:"curve,omitempty"`
	// Limit, Closed and ClosedConnections came later: older records lack them.
	Limit             *LimitV1 `json:"limit,omitempty"`
	Closed            float64  `json:"closed_rate,omitempty"`
	ClosedConnections int      `json:"closed_connections,omitempty"`
}

// AgentInfoV1 says which agent served a run and how its clock was aligned.
type AgentInfoV1 struct {
	URL         string        `json:"url"`
	ClockOffset time.Duration `json:"clock_offset_ns"`
	ClockError  time.Duration `json:"clock_error_ns"`
}

// CPUProfileV1 is a trial's CPU profile as folded stacks.
type CPUProfileV1 struct {
	Samples        int64     `json:"samples"`
	PeriodNs       int64     `json:"period_ns"`
	Stacks         []StackV1 `json:"stacks"`
	Dropped        int64     `json:"dropped,omitempty"`
	PerfCPUSeconds float64   `json:"perf_cpu_seconds,omitempty"`
}

// StackV1 is one folded stack (root first) and its sample count.
type StackV1 struct {
	Frames []string `json:"frames"`
	Count  int64    `json:"count"`
}

// GHCStatsV1 are a GHC runtime's GC statistics during a trial's window.
type GHCStatsV1 struct {
	BytesAllocated  int64          `json:"bytes_allocated"`
	AllocPerRequest float64        `json:"alloc_per_request"`
	GCs             int            `json:"gcs"`
	MajorGCs        int            `json:"major_gcs"`
	GCCPUSeconds    float64        `json:"gc_cpu_seconds"`
	CPUSeconds      float64        `json:"cpu_seconds"`
	GCShare         float64        `json:"gc_share"`
	MaxLiveBytes    int64          `json:"max_live_bytes"`
	Live            []LiveSampleV1 `json:"live,omitempty"`
}

// LiveSampleV1 is the live heap after a major collection (one
// declaration, lab.LiveSample).
type LiveSampleV1 = lab.LiveSample

// StatementV1 is one SQL statement's work during a trial's window.
type StatementV1 struct {
	Query   string  `json:"query"`
	Calls   int64   `json:"calls"`
	TotalMs float64 `json:"total_ms"`
	Rows    int64   `json:"rows"`
}
