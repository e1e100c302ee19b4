package lab

import (
	"context"
	"time"
)

// Server is the server side of an experiment: it puts variants in place,
// restarts what they need, gates on readiness, watches the server's
// resource use and always puts the original configuration back. In one
// process it is the local agent; across hosts it is a client of `lab agent`.
type Server interface {
	// Describe tells what is being measured.
	Describe(ctx context.Context) (Host, TargetInfo, error)
	// Apply puts a variant in place and waits until the target is ready.
	// The changes it made are returned (From is the original value).
	Apply(ctx context.Context, v Variant) (Applied, error)
	// Watch starts telemetry for a trial's measured window.
	Watch(ctx context.Context) (Window, error)
	// Restore puts the original configuration back and restarts the target.
	Restore(ctx context.Context) error
}

// VariantChecker is a Server that can tell, before the first trial,
// whether it can apply every variant on its host (e.g. a drop-in setting
// its supervisor cannot apply there). The runner asks it once and ends
// the run on an error, so a sweep the host cannot run does not fail
// trial by trial.
type VariantChecker interface {
	CheckVariants(ctx context.Context, vs []Variant) error
}

// Applied is what Apply did.
type Applied struct {
	Changes    []Change
	ReadyAfter time.Duration
}

// Window is a running telemetry recording.
type Window interface {
	// Stop ends the recording; requests is the number of HTTP requests
	// completed in the window, for the per-request figures.
	Stop(ctx context.Context, requests int64) (Telemetry, error)
}

// Telemetry is what a Window recorded.
type Telemetry struct {
	Server   Usage
	Database Usage
	DB       DBStats
	Events   []Event
	// MachineCPU is the whole machine's busy CPU during the window, in
	// cores (0 when unknown, e.g. from an agent that does not report it).
	MachineCPU float64
	// StealCPU is the CPU the hypervisor stole from the machine during the
	// window (/proc/stat steal), in cores: part of MachineCPU, and work
	// the machine wanted to do but did not get to (a burstable instance
	// out of credits; a noisy neighbour).
	StealCPU float64
	// SpeedRefNs is the machine's speed reference during the window (see
	// Trial.SpeedRefNs; 0 when unknown).
	SpeedRefNs float64
	// Profile, GHC and SQL: see Trial.
	Profile *CPUProfile
	GHC     *GHCStats
	SQL     []Statement
}

// Loader generates load against the target.
type Loader interface {
	Load(ctx context.Context, spec LoadSpec) (LoadOutcome, error)
}

// Cleaner is a Loader that undoes what a trial's requests left in the
// database (e.g. the rows POST scenarios inserted). The runner calls it after
// the telemetry window closed, so its work is not measured.
type Cleaner interface {
	Cleanup(ctx context.Context, spec LoadSpec) error
}

// ScenarioDescriber is a Loader that says what a scenario's requests are
// as it sends them (ScenarioInfo's Requests and Total; the runner adds
// the name and the answers' weight). The runner asks once per scenario,
// before the first trial, with the spec's Scenario and Custom set.
type ScenarioDescriber interface {
	DescribeScenario(spec LoadSpec) (ScenarioInfo, error)
}

// LoadSpec is one trial's load.
type LoadSpec struct {
	Scenario string    // built-in name, or the name of Custom
	Custom   *Scenario // set for user-defined scenarios
	// JWTSecret signs {jwt ...} templates (the experiment's jwt_secret).
	JWTSecret string
	// JWTPrivateKey is the PEM file that signs {jwt alg=RS256} templates.
	JWTPrivateKey string
	Load          Load
	Seed          int64
	// CPUs pins the generator's threads ([partition] generator); nil = any.
	CPUs []int
	// Estimate is the limit an earlier trial of the run found for this
	// variant and scenario (a sustained search starts from it), 0 for none.
	Estimate float64
	// Progress, when set, is called about once a second while measuring.
	Progress func(LoadProgress)
}

// LoadProgress is a live view of a running load.
type LoadProgress struct {
	Elapsed, Total time.Duration
	Warmup         bool
	Rate           float64
	P99Ms          float64
	Errors         int64
}

// LoadOutcome is what a Loader measured.
type LoadOutcome struct {
	Stats  LoadStats
	Series []Second
	Curve  []CurvePoint
	// GeneratorCPU is the CPU time the load generator's process used
	// during the load's measured window, in seconds (the warm-up's share
	// taken out; 0 when unknown).
	GeneratorCPU float64
	// Sent is the number of requests answered during the whole load when
	// that is more than Stats.Requests: a search's steps, warm-ups included.
	// Per-request CPU figures divide by it.
	Sent int64
}

// windowRequests is the count the telemetry window's per-request figures
// divide by: Trial.WindowRequests of the trial this outcome becomes.
func (o LoadOutcome) windowRequests() int64 {
	return Trial{Load: o.Stats, Sent: o.Sent}.WindowRequests()
}
