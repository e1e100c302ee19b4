package lab

import (
	"strconv"
	"time"
)

// RecordSchema is the version of run.json, the record of a Run (package
// record holds its versioned types); a Run carries the version it was
// read from or is written as.
const RecordSchema = 1

// Run is everything one `lab run` measured, in memory: the raw material
// for verdicts and reports. Its record, run.json in the run's result
// directory and a row of the store, is package record's (versioned
// types, conversions both ways).
type Run struct {
	Schema     int
	Experiment Experiment
	Started    time.Time
	Finished   time.Time
	Host       Host
	Target     TargetInfo
	Variants   []VariantInfo
	Trials     []Trial
	Events     []Event
	// Agent is set when the server side was a remote `lab agent`.
	Agent *AgentInfo
	// Capacity is set for the efficiency model: what the baseline's
	// capacity search found per scenario, and the rate the trials used.
	Capacity []Capacity
	// Interrupted is set when the run was stopped early (Ctrl-C, error).
	Interrupted string
	// ExperimentHash identifies the experiment's content (ExperimentHash
	// of Experiment): runs of an edited file do not share it, so they are
	// not put in one series unawares.
	ExperimentHash string
	// Scenarios say, per scenario of the experiment, what the load
	// generator asked (when the Loader describes it, ScenarioDescriber)
	// and what the answers weighed; nil in records from before they were
	// kept.
	Scenarios []ScenarioInfo
	// Dataset is what the target's database held at the run's start (nil
	// when the server side cannot read it, and in older records).
	Dataset *Dataset
}

// ScenarioInfo is what a run asked of one scenario and what the answers
// weighed.
type ScenarioInfo struct {
	Name string
	// Requests are the scenario's requests as the load generator sends
	// them, the first MaxDescribedRequests of them.
	Requests []AskedRequest
	// Total is the scenario's count of requests when Requests lists only
	// the first (a targets file's lines); 0 when it lists them all.
	Total int
	// AnswerBytes is the mean bytes received per answer, headers included:
	// the sum of Load.BytesIn over the sum of Load.Requests of the run's
	// trials of the scenario that count (no Error), Answers that sum of
	// requests (AnswerWeight). 0 when no trial counted.
	AnswerBytes float64
	Answers     int64
}

// MaxDescribedRequests bounds ScenarioInfo.Requests: a targets file may
// hold thousands of lines.
const MaxDescribedRequests = 5

// AskedRequest is one request of a scenario as the load generator sends
// it: the method, the path with its template fields as written ({rand LO
// HI} where an id is drawn per request, the id itself where it is fixed)
// and the size of the body.
type AskedRequest struct {
	Method string
	Path   string
	// BodyBytes is the body's size in bytes in the run's first request
	// (its template fields filled); 0 without a body.
	BodyBytes int
	// BodyVaries says the body has template fields ({seq}, {rand},
	// {jwt}): its size may differ from request to request.
	BodyVaries bool
	// IDs are the ids the request's filters ask for: a range drawn per
	// request, or the one fixed id.
	IDs []IDRange
}

// AnswerWeight is the mean bytes received per answer of the scenario's
// trials in trials that count (no Error), headers included, and the number
// of answers it is over (0, 0 without any).
func AnswerWeight(trials []Trial, scenario string) (mean float64, answers int64) {
	var bytes int64
	for _, t := range trials {
		if t.Scenario == scenario && t.Error == "" {
			bytes += t.Load.BytesIn
			answers += t.Load.Requests
		}
	}
	if answers == 0 {
		return 0, 0
	}
	return float64(bytes) / float64(answers), answers
}

// Interference is how a trial's measured window used the machine's CPU,
// in cores (CPU seconds per second).
type Interference struct {
	Machine   float64
	Server    float64
	Database  float64
	Generator float64
	// Other is Machine minus the rest: other processes, the kernel's work
	// for them, and whatever the cgroups do not account to the services.
	Other float64
	// Share is Other as a share of the machine's CPUs; Flagged says it was
	// above Trials.Interference.
	Share   float64
	Flagged bool
	// Steal is the CPU the hypervisor stole during the trial, in cores
	// (part of Machine and of Other: CPU time the machine did not get).
	Steal float64
}

// Capacity is the efficiency model's capacity search on one scenario.
type Capacity struct {
	Scenario string
	Variant  string  // the baseline
	Found    float64 // highest rate within the limit, req/s
	Rate     float64 // the trials' open-model rate: Found × Utilisation
	Curve    []CurvePoint
	// Limit is what the search's rates had to meet.
	Limit Limit
	// Closed is the throughput of a short closed-model run with
	// ClosedConnections connections right after the search (0: it failed),
	// the figure wrk would give: with Found, the two conditions a capacity
	// is stated under.
	Closed            float64
	ClosedConnections int
}

// AgentInfo says which agent served a run and how its clock was aligned.
type AgentInfo struct {
	URL string
	// ClockOffset is the agent's clock minus the driver's, measured
	// NTP-style; telemetry times were converted to the driver's clock.
	ClockOffset time.Duration
	// ClockError bounds the offset (half the best round trip).
	ClockError time.Duration
}

// Host describes the server machine.
type Host struct {
	Hostname string
	// HostID identifies the machine (its DMI product UUID or machine-id):
	// hosts with the same HostID share their cores.
	HostID      string
	OS          string
	Kernel      string
	CPUModel    string
	CPUs        int
	MemoryBytes uint64
	CgroupMode  string // v1, v2, hybrid
	PostgreSQL  string // server version
	LabVersion  string
	GoVersion   string
}

// TargetInfo describes the server under test.
type TargetInfo struct {
	Binary     string
	Version    string
	Reference  bool   // postgrest-mini, not PostgREST
	Supervisor string // a systemd.Kind: systemd-user, systemd-system, direct
	URL        string
	Unit       string
	Config     string
}

// VariantInfo is a variant as run, with the changes it made.
type VariantInfo struct {
	Name        string
	Description string
	Baseline    bool
	Changes     []Change
	// Binary is the executable the variant ran instead of the target's,
	// and Version its `--version` (asked before the run), when it set one.
	Binary  string
	Version string
	// Build is what the variant's binary (its own, else the target's) was
	// built from, read from its --version or given by the lab's build.
	Build Build
}

// Change is one setting a variant changed, as applied.
type Change struct {
	Where string // postgrest, postgresql, env, dropin, binary; note: what the target made of it
	Key   string
	From  string
	To    string
}

// Trial is one measurement of one variant on one scenario.
type Trial struct {
	Seq      int // order in the run, from 1
	Variant  string
	Scenario string
	Rep      int // repetition of this (variant, scenario), from 1
	Start    time.Time
	End      time.Time
	// Measured is when the measured part began (after the warm-up): the
	// zero of Series, of the telemetry samples and of the actions' times.
	// Zero in records from before it was kept.
	Measured time.Time
	// ReadyAfter is the time from the restart to the first ready answer.
	ReadyAfter time.Duration
	// Half is the target that served the trial in a duet run ("a", the
	// stack's target, or "b", its twin); "" otherwise.
	Half string

	Load   LoadStats
	Series []Second
	Curve  []CurvePoint // search model: rate vs latency
	// Sent is the requests answered during the telemetry window when that
	// is more than Load.Requests (a search: every step with its warm-up,
	// LoadOutcome.Sent); 0 otherwise. See WindowRequests.
	Sent     int64
	Server   Usage
	Database Usage
	DB       DBStats
	Events   []Event
	// Interference is the CPU used on the machine by other work during
	// the trial (nil when the machine's CPU was not measured).
	Interference *Interference
	// SpeedRefNs is the CPU time, in nanoseconds, of a fixed piece of
	// work (two chases through memory and a run of system calls; the
	// geometric mean of their medians) sampled on the server's machine
	// during the window:
	// higher means the machine was slower (e.g. busier neighbours on a
	// shared host). Verdicts on CPU per request are adjusted with it
	// (lab/stats, "Speed adjustment"). 0 when not measured.
	SpeedRefNs float64
	// Profile, GHC and SQL are set when the run profiled (profile = true):
	// CPU profile, GHC runtime statistics (Haskell targets) and the SQL
	// statements sent during the measured window.
	Profile *CPUProfile
	GHC     *GHCStats
	SQL     []Statement
	// Error is set when the trial failed (not ready, crashed); such trials
	// are kept in the record but left out of verdicts.
	Error string
}

// WindowRequests is the count the telemetry window's per-request figures
// are per (CPU and statements per request, GHC allocation, the SQL each
// variant sent): the successful answers, so that a server failing some
// requests fast does not read as a cheaper one (their cost is charged to
// the answers that worked); or Sent when set: a search's Load holds its
// best step only, while the window saw every step, failed answers
// included.
func (t Trial) WindowRequests() int64 {
	if t.Sent > t.Load.Requests {
		return t.Sent
	}
	return t.Load.Succeeded()
}

// LoadStats is the load generator's summary of a trial (warm-up excluded).
// Throughput and latency are the successful answers' (Succeeded): errors
// and dropped requests never count as throughput, and failed answers are
// in no percentile.
type LoadStats struct {
	Model       Model
	Requests    int64 // answered, failed ones included
	Errors      int64 // of Requests, the failed ones (by kind in ErrorKinds)
	Dropped     int64
	Seconds     float64
	Rate        float64 // successful answers/s: Succeeded / Seconds
	AskedRate   float64
	Connections int
	LatencyMs   Percentiles // successful answers', from intended start (open) or send (closed)
	ServiceMs   Percentiles // successful answers', from actual send
	// FirstByteMs is the time to the first byte of the successful answers
	// (P50, P90, P99, Max; from the latency's start, whose figures are the
	// time to the last byte); nil in records from before it was measured.
	FirstByteMs *Percentiles
	BytesIn     int64
	BytesOut    int64
	Status      map[string]int64
	ErrorKinds  map[string]int64
	MaxInFlight int
	// ServerTiming is the target's Server-Timing breakdown, when it sent
	// the header (PostgREST's server-timing-enabled).
	ServerTiming *ServerTiming
	// Endpoints are the trial's requests measured apart (a targets file's
	// lines), one row per request and answer status, in the file's order.
	Endpoints []EndpointStats
}

// Succeeded is the number of successful answers, the ones throughput and
// latency are computed from (the load generator decides which answer
// failed).
func (l LoadStats) Succeeded() int64 { return l.Requests - l.Errors }

// EndpointStats is one request of a trial with one answer status, named
// "STATUS METHOD PATH" as postgrest-loadtest-report names its rows.
// Latencies in milliseconds; a row of answers that never came (status 0)
// has none.
type EndpointStats struct {
	Name                                     string
	Method                                   string
	Path                                     string
	Status                                   int
	Line                                     int // in the targets file
	Requests                                 int64
	Errors                                   int64
	MinMs, P50Ms, P90Ms, P95Ms, P99Ms, MaxMs float64
}

// Quantiles are the line's P0 (MinMs), P50, P90, P95 and P99, in ms: the
// columns of postgrest-loadtest-report, in that order.
func (e EndpointStats) Quantiles() [5]float64 {
	return [5]float64{e.MinMs, e.P50Ms, e.P90Ms, e.P95Ms, e.P99Ms}
}

// EndpointName is the name of a row: "STATUS METHOD PATH".
func EndpointName(status int, method, path string) string {
	return strconv.Itoa(status) + " " + method + " " + path
}

// Percentiles of a latency distribution, in milliseconds.
type Percentiles struct {
	Min  float64
	Mean float64
	P50  float64
	P90  float64
	P95  float64
	P99  float64
	P999 float64
	Max  float64
}

// Second is one point of a trial's per-second series.
type Second struct {
	T        float64 // seconds since the measured part began, at the second's end (1 for the first)
	Requests int64
	Errors   int64
	P50Ms    float64
	P99Ms    float64
	// MaxMs is the second's slowest successful answer (a request held by
	// a stall for its whole length shows here when too few for p99), and
	// Dropped the requests an open model had to drop in it. 0 in records
	// from before they were kept.
	MaxMs   float64
	Dropped int64
}

// CurvePoint is one step of a search. A sustained search's steps say what
// each measured (Kind: "closed", its Connections; "hold"; "at", its Share
// of the limit), with more of the latency and the real time its answers
// took (Elapsed, seconds).
type CurvePoint struct {
	AskedRate   float64
	Rate        float64
	P99Ms       float64
	ErrorRate   float64
	Dropped     float64
	OK          bool
	Kind        string
	Connections int
	Share       float64
	P50Ms       float64
	P95Ms       float64
	Elapsed     float64
	Why         string
}

// Usage is a service's resource use during a trial's measured window.
type Usage struct {
	CPUSeconds      float64
	CPUUtil         float64 // cores busy on average
	CPUPerRequestUs float64 // CPUSeconds*1e6 / Trial.WindowRequests (successful answers)
	PeakRSS         uint64
	MeanRSS         uint64
	// PeakCgroup is the most memory charged to the service's cgroup: what
	// a MemoryMax= limit holds (the kernel's high-water mark, memory.peak
	// on cgroup v2, memory.max_usage_in_bytes on v1, since the cgroup was
	// made, or the highest sample). PeakRSS counts the file pages the
	// processes map (the binary, its libraries), which the limit does not
	// when another cgroup was charged for them: RSS can exceed the limit.
	// 0 without a cgroup, and in older records.
	PeakCgroup uint64
	Samples    []UsageSample
}

// UsageSample is one telemetry sample, relative to the trial's start.
type UsageSample struct {
	T   float64 // seconds
	CPU float64 // cores busy since the previous sample
	RSS uint64
}

// DBStats are PostgreSQL counters over a trial, per HTTP request.
type DBStats struct {
	TransactionsPerRequest float64
	StatementsPerRequest   float64
	Rollbacks              int64
	Backends               int
	// Pool is PostgREST's connection pool as its admin server's /metrics
	// showed it during the trial (nil without an admin server).
	Pool *PoolStats
	// JWTCache is PostgREST's JWT cache over the trial, from the same
	// scrapes (pgrst_jwt_cache_*_total, PostgREST 14.0+): nil when the
	// target does not expose the counters (13.x, postgrest-mini), which is
	// unknown, not zero.
	JWTCache *JWTCacheStats
}

// PoolStats summarises PostgREST's pool metrics (pgrst_db_pool_*) over a
// trial. The waiting gauge counts requests waiting for or using a
// connection in every PostgREST with the metrics (usePool raises it before
// asking the pool and lowers it after the session: AppState.hs at v13.0.8,
// v14.0, v14.12, v14.17, AppState/Pool.hs at v16.0); MaxInUse and
// MaxWaiting split it with the available gauge, the idle connections: up
// to 14.11 a gauge moved by the pool's connection events, which drifts low
// (below zero) when connections fail or break; from 14.12 (#4622, commit
// ed2dc1fe8; a29739107 in 16.0) connected minus in use, exact. The split
// (telemetry.PoolMetrics.InUse) holds for both, within the drift for the
// older. postgrest-mini's gauges mean what 14.12's do.
type PoolStats struct {
	Size         int   // pgrst_db_pool_max
	MinAvailable int   // fewest idle connections seen
	MaxInUse     int   // most connections seen held by requests
	MaxWaiting   int   // most requests seen really waiting: waiting - (max - available), at least 0
	MaxGauge     int   // highest raw pgrst_db_pool_waiting (waiting or using)
	Timeouts     int64 // acquisitions that timed out (504 PGRST003)
	Scrapes      int
}

// EventKind is what happened to a server (Event.Kind).
type EventKind string

// Event kinds, as written in run.json. The telemetry adapter's kinds have
// the same names (a test in the wiring checks it).
const (
	EventOOMKill  EventKind = "oom-kill"  // the kernel's OOM killer killed a server process
	EventCrash    EventKind = "crash"     // a server's main process went away without a restart by systemd
	EventRestart  EventKind = "restart"   // a server's main process was replaced without the lab asking (systemd restarted it)
	EventNotReady EventKind = "not-ready" // the target did not pass the readiness gate after a variant was applied
)

// Event is something that happened to the server: an OOM kill, a crash,
// an unexpected restart, a failed readiness gate.
type Event struct {
	T       time.Time
	Kind    EventKind // EventOOMKill, EventCrash, EventRestart, EventNotReady
	Source  string    // postgrest, postgresql
	Detail  string
	PID     int
	Variant string
	Trial   int
	Rate    float64 // request rate at that moment
	// Duration is how long it lasted, when it had a length (an action, a
	// schema cache load); 0 otherwise.
	Duration time.Duration
}

// Fatal reports whether the event ended a server's process during a trial
// (an OOM kill, a crash, or a restart the lab did not ask for, which
// follows one): the trial fails with the event as its reason, is left out
// of the verdicts and is repeated once.
func (e Event) Fatal() bool {
	return e.Kind == EventOOMKill || e.Kind == EventCrash || e.Kind == EventRestart
}
