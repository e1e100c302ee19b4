package lab

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
)

// Experiment is one experiment file: what to vary, what to send, how long,
// and how often. It is the model, not the file format: package experiments
// decodes a file into its own types (the TOML names) and converts them into
// an Experiment; package record writes it to run.json. Load, Limit and
// Trials are the exception: one type each for the three, carrying both
// names (see Load). FieldError paths use the file's names (Custom is
// [[scenario]], Variants [[variant]]).
type Experiment struct {
	Name        string
	Title       string
	Description string

	Target    Target
	Scenarios []string // built-in or custom scenario names
	Custom    []Scenario
	// Targets is a targets file (vegeta's format, like PostgREST's
	// test/load/targets.http), relative to the experiment file: its
	// requests, round-robin, become the scenario "targets" (see UseTargets).
	Targets string
	// PerLine makes each request of Targets its own scenario
	// (SplitTargets), measured and decided apart.
	PerLine bool
	// JWTSecret signs the {jwt ...} templates of the requests (HS256); it
	// is never written to run.json or reports.
	JWTSecret string
	// JWTPrivateKey is the PEM file of the RSA private key that signs
	// {jwt alg=RS256 ...} templates (jwt_private_key, resolved against the
	// experiment file's directory).
	JWTPrivateKey string
	Load          Load
	Trials        Trials
	Variants      []Variant
	// Sweep optionally generates the variants: one key (or a grid of two)
	// at a list or range of values; see Sweep.
	Sweep *Sweep
	// Partition optionally gives the load generator and PostgREST their
	// own CPUs.
	Partition Partition
	// Cost optionally prices the hosts: a limits table then gives the
	// cost of a million requests per scenario.
	Cost Cost

	// AllowUnknownKeys lets variants set PostgREST keys the lab's catalogue
	// does not know (e.g. from a newer PostgREST).
	AllowUnknownKeys bool

	// Profile records, per trial, a CPU profile (perf) of the target and
	// PostgreSQL, GHC runtime statistics of a Haskell target (+RTS -S) and
	// the SQL statements sent (pg_stat_statements), all over the measured
	// window. Local server side only.
	Profile bool

	// Actions are done to the server at set times of every trial's
	// measured part (action.go); Timeline asks the report for every
	// trial's timeline (RSS, latency, errors and events on one time axis),
	// which trials with actions or server events get anyway.
	Actions  []Action
	Timeline bool

	// Source is the file the experiment was read from ("" for built-ins).
	Source string
}

// Target says which server the experiment runs against. The zero value
// means the local stack (`lab stack up`).
type Target struct {
	Stack    string // state dir of a local stack; "" = default
	Unit     string // PostgREST unit of an existing server
	Config   string // its config file
	URL      string // its API URL
	AdminURL string // its admin server (/ready, /metrics)
	PGUnit   string // PostgreSQL unit, for restarts and telemetry
	PGURI    string // superuser URI, for settings and counters
}

// Partition assigns CPUs (lists like "0" or "0,2-3") so that the load
// generator and the server under test do not compete for the same cores.
// PostgREST's list becomes the CPUAffinity drop-in of every variant;
// PostgreSQL's that of its unit for the whole run (set at the first
// variant, with one restart of PostgreSQL, and removed at the end).
// PostgREST and the generator must not share CPUs; PostgreSQL may share
// with either (on two cores one of the three shares).
type Partition struct {
	Generator  string
	PostgREST  string
	PostgreSQL string
}

// Scenario is a user-defined scenario: one request template, weighted in the mix.
type Scenario struct {
	Name     string
	Method   string
	Path     string // may hold templates like {rand 1 275}
	Header   map[string]string
	Body     string
	BodyFile string
	Expect   int // expected status; 0 = any 2xx
	Weight   float64
	// Targets is the targets file this scenario replays (set by
	// UseTargets; then Method, Path, Header and Body are unused).
	Targets string
	// Line, when set, replays only the Line-th request of Targets
	// (counting from 1; SplitTargets), else all of them round-robin.
	Line int
}

// CapacityLimit is the limit of the efficiency model's capacity search:
// Limit, or when it sets neither p99 nor max_errors, at most 0.1 % errors
// and (unless max_dropped is set) 1 % dropped requests. A limit written
// as 0 ("no failures") is kept: it is set, not missing.
func (l Load) CapacityLimit() Limit {
	lim := l.Limit
	if lim.P99 <= 0 && lim.MaxErrors == nil {
		lim.MaxErrors = new(0.001)
		if lim.MaxDropped == nil {
			lim.MaxDropped = new(0.01)
		}
	}
	return lim
}

// EffectiveUtilisation is Utilisation, or DefaultUtilisation when unset.
func (l Load) EffectiveUtilisation() float64 {
	if l.Utilisation > 0 {
		return l.Utilisation
	}
	return DefaultUtilisation
}

// DefaultUtilisation is the share of the baseline's capacity that the
// efficiency model offers.
const DefaultUtilisation = 0.65

// Load says how traffic is generated in each trial. It is the one
// declaration of the load settings: the experiment file's [load] (toml
// tags, durations written as strings like "10s") and run.json's "load"
// (json tags, durations in nanoseconds; record.LoadV1 is this type, frozen
// by the golden tests) both decode into it, so no field is copied by hand
// between the three.
type Load struct {
	Model       Model         `toml:"model" json:"model"`
	Rate        float64       `toml:"rate" json:"rate,omitempty"`                   // open: requests/s
	MaxInFlight int           `toml:"max_in_flight" json:"max_in_flight,omitempty"` // open: bound on concurrent requests
	Connections int           `toml:"connections" json:"connections,omitempty"`     // closed
	Think       time.Duration `toml:"think" json:"think,omitempty"`                 // closed
	Duration    time.Duration `toml:"duration" json:"duration"`
	Warmup      time.Duration `toml:"warmup" json:"warmup"`
	Timeout     time.Duration `toml:"timeout" json:"timeout,omitempty"` // per request
	Limit       Limit         `toml:"limit" json:"limit,omitempty"`     // search
	Threads     int           `toml:"threads" json:"threads,omitempty"`
	// Utilisation is the efficiency model's rate as a share of the
	// baseline's capacity, in (0, 1); default DefaultUtilisation.
	Utilisation float64 `toml:"utilisation" json:"utilisation,omitempty"`
}

// Limit is what a search must meet ([load.limit]; run.json's "limit").
// MaxErrors and MaxDropped are nil when the file leaves them out, so that
// 0 ("no failures", the 2020 benchmark's criterion) is a limit of its own,
// not a missing one; a search checks both rates either way (unset: none
// allowed, see ErrorRate and DroppedRate).
//
// Hold makes it a sustained limit (the search model's trials then find the
// highest rate the target holds for Hold: see loadgen.Sustain): with P95
// (the 2020 benchmark's k6 threshold p(95) < 1s is DefaultP95) as the
// latency SLO and MinAchieved of the offered rate answered over the real
// time the answers took.
type Limit struct {
	P99        time.Duration `toml:"p99" json:"p99,omitempty"`
	P95        time.Duration `toml:"p95" json:"p95,omitempty"`
	MaxErrors  *float64      `toml:"max_errors" json:"max_errors,omitempty"`   // fraction, e.g. 0.001
	MaxDropped *float64      `toml:"max_dropped" json:"max_dropped,omitempty"` // fraction, e.g. 0.01
	MinRate    float64       `toml:"min_rate" json:"min_rate,omitempty"`
	MaxRate    float64       `toml:"max_rate" json:"max_rate,omitempty"`
	Hold       time.Duration `toml:"hold" json:"hold,omitempty"`
	// MinAchieved is the share of the offered rate a hold must answer;
	// 0: 0.99.
	MinAchieved float64 `toml:"min_achieved" json:"min_achieved,omitempty"`
}

// Sustained reports whether the limit is a sustained one (Hold set).
func (l Limit) Sustained() bool { return l.Hold > 0 }

// Achieved is the share of the offered rate a hold must answer
// (MinAchieved, else 0.99).
func (l Limit) Achieved() float64 {
	if l.MinAchieved > 0 {
		return l.MinAchieved
	}
	return 0.99
}

// ErrorRate is the share of failed requests a step may have (MaxErrors;
// 0 when unset).
func (l Limit) ErrorRate() float64 { return deref(l.MaxErrors) }

// DroppedRate is the share of dropped requests a step may have
// (MaxDropped; 0 when unset).
func (l Limit) DroppedRate() float64 { return deref(l.MaxDropped) }

func deref(f *float64) float64 {
	if f == nil {
		return 0
	}
	return *f
}

// String is the limit as people write it: "p99 ≤ 50ms, errors ≤ 0.1 %,
// dropped ≤ 1 %", a rate of 0 as "errors = 0" (", at most 400 req/s" with
// MaxRate); the shares are format.Share's.
func (l Limit) String() string {
	var parts []string
	if l.Sustained() {
		parts = append(parts, "held for "+l.Hold.String(), "achieved ≥ "+format.Share(l.Achieved())+" of the offered rate")
	}
	if l.P95 > 0 {
		parts = append(parts, "p95 < "+l.P95.String())
	}
	if l.P99 > 0 {
		parts = append(parts, "p99 ≤ "+l.P99.String())
	}
	for _, r := range []struct {
		what string
		v    float64
	}{{"errors", l.ErrorRate()}, {"dropped", l.DroppedRate()}} {
		if r.v == 0 {
			parts = append(parts, r.what+" = 0")
		} else {
			parts = append(parts, r.what+" ≤ "+format.Share(r.v))
		}
	}
	if l.MaxRate > 0 {
		parts = append(parts, "at most "+format.Num(l.MaxRate, 3)+" req/s")
	}
	return strings.Join(parts, ", ")
}

// Capped reports whether a search within l stopped at its max_rate: the
// rate found is a bound the experiment set, not the target's capacity.
func (l Limit) Capped(found float64) bool { return l.MaxRate > 0 && found >= l.MaxRate }

// Order is the order of a round's trials (Trials.Order).
type Order string

// Trial orders.
const (
	OrderInterleaved Order = "interleaved" // ABAB...
	OrderRandom      Order = "random"      // randomised blocks, seeded
	// OrderDuet serves both variants at once, on two targets (the local
	// stack's target and its twin), the load split between them, the
	// halves swapping variants every round: see Duet.
	OrderDuet Order = "duet"
)

// Orders are the trial orders.
var Orders = []Order{OrderInterleaved, OrderRandom, OrderDuet}

// Valid reports whether o is a trial order, naming the allowed ones if not.
func (o Order) Valid() error { return oneOf(o, "a trial order", Orders, "") }

// Analysis is the test verdicts use (Trials.Analysis); "" chooses.
type Analysis string

// Analyses a verdict can use (Trials.Analysis).
const (
	AnalysisPaired   Analysis = "paired"   // per-round ratios, Wilcoxon signed-rank
	AnalysisUnpaired Analysis = "unpaired" // two samples, Mann-Whitney U
)

// Analyses are the analyses a file may name.
var Analyses = []Analysis{AnalysisPaired, AnalysisUnpaired}

// Valid reports whether a is an analysis or unset, naming the allowed ones
// if not.
func (a Analysis) Valid() error {
	if a == "" {
		return nil
	}
	return oneOf(a, "an analysis", Analyses, "; unset = paired when every round is complete")
}

// oneOf checks a value of a string enum against its allowed values:
// `"x" is not a load model (allowed: open, closed, ...)`.
func oneOf[T ~string](v T, what string, allowed []T, note string) error {
	if slices.Contains(allowed, v) {
		return nil
	}
	names := make([]string, len(allowed))
	for i, a := range allowed {
		names[i] = string(a)
	}
	return fmt.Errorf("%q is not %s (allowed: %s%s)", string(v), what, strings.Join(names, ", "), note)
}

// Trials says how often each (variant, scenario) is measured.
type Trials struct {
	Min   int     `toml:"min" json:"min"`     // trials per variant and scenario before a verdict
	Max   int     `toml:"max" json:"max"`     // stop here even if undecided
	Order Order   `toml:"order" json:"order"` // interleaved | random | duet
	Seed  int64   `toml:"seed" json:"seed"`
	Alpha float64 `toml:"alpha" json:"alpha"` // significance level, default 0.05
	// Analysis is the test verdicts use: "paired" (Wilcoxon signed-rank
	// on per-round ratios), "unpaired" (Mann-Whitney U), or "" for paired
	// when every round measured both variants.
	Analysis Analysis `toml:"analysis" json:"analysis,omitempty"`
	// Sequential (default true) makes the adaptive stop a group-sequential
	// design that spends alpha over the looks between Min and Max; false
	// tests at alpha after every round (more false positives).
	Sequential *bool `toml:"sequential" json:"sequential,omitempty"`
	// Interference is the share of the machine's CPUs that other work
	// (anything but the measured services and the load generator) may use
	// during a trial; a round with a trial above it is left out of the
	// verdicts and measured again, within Max. Default 0.2; 1 disables.
	Interference float64 `toml:"interference" json:"interference,omitempty"`
	// SpeedAdjust (default true) adjusts the paired verdicts on CPU per
	// request for the machine's speed reference measured in every trial
	// (Trial.SpeedRefNs); false tests the raw per-round ratios.
	SpeedAdjust *bool `toml:"speed_adjust" json:"speed_adjust,omitempty"`
	// Fresh starts the target afresh for every trial: a variant PostgREST
	// could take by a config reload is restarted instead, so that no
	// trial's memory carries what the one before it left (memory-growth).
	Fresh bool `toml:"fresh" json:"fresh,omitempty"`
	// Headline names the metric the verdict is about and the adaptive
	// stop waits for (a Metrics name with a direction: "p99", "cpu",
	// "server_cpu", "peak_rss", ...); "" leaves it to the load model
	// (PrimaryMetric).
	Headline string `toml:"headline" json:"headline,omitempty"`
}

// InterferenceLimit is Interference, or DefaultInterference when unset.
func (t Trials) InterferenceLimit() float64 {
	if t.Interference > 0 {
		return t.Interference
	}
	return DefaultInterference
}

// IsSequential reports whether the adaptive stop spends alpha over the
// looks (the default).
func (t Trials) IsSequential() bool { return t.Sequential == nil || *t.Sequential }

// AdjustsForSpeed reports whether CPU verdicts are adjusted for the
// machine's speed reference (the default).
func (t Trials) AdjustsForSpeed() bool { return t.SpeedAdjust == nil || *t.SpeedAdjust }

// Variant is one configuration of the server under test.
type Variant struct {
	Name        string
	Description string
	Baseline    bool

	// PostgREST config keys. db-uri may be "tcp" or "unix": the lab derives
	// the full URI from the base config and the PostgreSQL's addresses.
	PostgREST map[string]string
	// PostgreSQL settings (ALTER SYSTEM); restart or reload as each needs.
	PostgreSQL map[string]string
	// Environment of the PostgREST unit (e.g. PGRST_* or GHCRTS).
	Env map[string]string
	// Unit drop-in settings for the PostgREST unit, e.g. CPUAffinity, MemoryMax.
	DropIn map[string]string
	// Binary replaces the PostgREST executable; Args are extra arguments
	// (e.g. ["+RTS", "-N2", "-RTS"]).
	Binary string
	Args   []string
	// PGCPUAffinity is the PostgreSQL unit's CPUAffinity, set from
	// [partition] postgresql (never from a variant table): the server
	// keeps it across variants and removes it when it restores.
	PGCPUAffinity string
	// Restart starts the target afresh even where a config reload would
	// apply the variant: set from [trials] fresh, never by a variant table.
	Restart bool
	// Unsandboxed runs the target without the lab's sandbox (sandbox =
	// false in a variant table), for measuring what the sandbox costs
	// (experiments/sandbox.toml). Local runs only: an agent refuses it.
	Unsandboxed bool
}

// WithBinary is a variant named name running binary with v's settings
// (PostgREST and PostgreSQL keys, environment, drop-in, arguments), the
// maps copied: how --binary keeps an experiment's baseline settings.
func (v Variant) WithBinary(name, binary, description string, baseline bool) Variant {
	return Variant{Name: name, Description: description, Baseline: baseline, Binary: binary,
		PostgREST: maps.Clone(v.PostgREST), PostgreSQL: maps.Clone(v.PostgreSQL), Env: maps.Clone(v.Env),
		DropIn: maps.Clone(v.DropIn), Args: slices.Clone(v.Args), Unsandboxed: v.Unsandboxed}
}

// BaselineVariant returns the variant marked baseline, else the first.
func (e *Experiment) BaselineVariant() Variant {
	for _, v := range e.Variants {
		if v.Baseline {
			return v
		}
	}
	if len(e.Variants) == 0 {
		return Variant{}
	}
	return e.Variants[0]
}
