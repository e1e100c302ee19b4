package lab

import "slices"

// Metric is a number computed per trial that verdicts compare.
type Metric struct {
	Name   string // short name, e.g. "rate"
	Label  string // for people, e.g. "throughput"
	Unit   string // e.g. "req/s", "ms", "µs/req", "MB"
	Better int    // +1 higher is better, -1 lower is better, 0 neutral
	// Of returns the value for a trial and whether it is known.
	Of func(Trial) (float64, bool)
}

// Metrics are the metrics compared in verdicts and reports, in report
// order: the core ones, then the Server-Timing phases (phases.go), the GHC
// runtime's statistics (metrics_ghc.go) and PostgREST's JWT cache
// (metrics_jwt.go), each known only for trials that measured it.
var Metrics = slices.Concat(coreMetrics, phaseMetrics(), GHCMetrics, JWTCacheMetrics)

// coreMetrics are the metrics every trial can have.
var coreMetrics = []Metric{
	{"rate", "throughput", "req/s", +1, func(t Trial) (float64, bool) { return t.Load.Rate, t.Load.Requests > 0 }},
	// Latencies are the successful answers': a trial without one has none.
	{"p50", "latency p50", "ms", -1, func(t Trial) (float64, bool) { return t.Load.LatencyMs.P50, t.Load.Succeeded() > 0 }},
	{"p99", "latency p99", "ms", -1, func(t Trial) (float64, bool) { return t.Load.LatencyMs.P99, t.Load.Succeeded() > 0 }},
	{"min", "latency min", "ms", -1, func(t Trial) (float64, bool) { return t.Load.LatencyMs.Min, t.Load.Succeeded() > 0 }},
	// CPU per request is per successful answer (Trial.WindowRequests),
	// and unknown for a trial without one: a server that fails requests
	// fast must not read as a cheap one (lab track once charted a broken
	// build's 200 µs of failures beside its parents' working requests).
	{"server_cpu", "server CPU", "µs/req", -1, func(t Trial) (float64, bool) {
		return t.Server.CPUPerRequestUs, t.Server.CPUSeconds > 0 && t.Load.Succeeded() > 0
	}},
	{"db_cpu", "database CPU", "µs/req", -1, func(t Trial) (float64, bool) {
		return t.Database.CPUPerRequestUs, t.Database.CPUSeconds > 0 && t.Load.Succeeded() > 0
	}},
	{"cpu", "server + database CPU", "µs/req", -1, func(t Trial) (float64, bool) {
		return t.Server.CPUPerRequestUs + t.Database.CPUPerRequestUs,
			t.Server.CPUSeconds > 0 && t.Database.CPUSeconds > 0 && t.Load.Succeeded() > 0
	}},
	{"peak_rss", "server peak RSS", "MB", -1, func(t Trial) (float64, bool) {
		return float64(t.Server.PeakRSS) / 1e6, t.Server.PeakRSS > 0
	}},
	{SpeedRefMetric, "machine speed reference", "µs", 0, func(t Trial) (float64, bool) {
		return t.SpeedRefNs / 1e3, t.SpeedRefNs > 0
	}},
	{"pool_size", "pool size (db-pool)", "connections", 0, poolMetric(func(p *PoolStats) float64 { return float64(p.Size) })},
	{"pool_in_use", "pool connections in use, max", "connections", 0, poolMetric(func(p *PoolStats) float64 { return float64(p.MaxInUse) })},
	{"pool_waiting", "waiting for a pool connection, max", "requests", -1, poolMetric(func(p *PoolStats) float64 { return float64(p.MaxWaiting) })},
	{"pool_timeouts", "pool acquisition timeouts", "requests", -1, poolMetric(func(p *PoolStats) float64 { return float64(p.Timeouts) })},
	// errors counts failed answers and requests the generator had to drop
	// (open model, in-flight bound reached), as a share of all requests it
	// was asked to send: an all-dropped trial is 100 %, not NaN.
	{"errors", "errors", "%", -1, func(t Trial) (float64, bool) {
		asked := t.Load.Requests + t.Load.Dropped
		if asked == 0 {
			return 0, false
		}
		return 100 * float64(t.Load.Errors+t.Load.Dropped) / float64(asked), true
	}},
}

// SpeedRefMetric is the name of the machine's speed reference as a metric
// (Trial.SpeedRefNs, in µs): not a property of a variant, but a check that
// the variants did not change it, since CPU metrics are adjusted with it.
const SpeedRefMetric = "speed_ref"

// SpeedAdjusted reports whether a metric's verdict is adjusted for the
// machine's speed reference (Trials.SpeedAdjust): the CPU per request of
// the server, of the database, and of both.
func (m Metric) SpeedAdjusted() bool {
	switch m.Name {
	case "cpu", "server_cpu", "db_cpu":
		return true
	}
	return false
}

// MetricByName finds a metric.
func MetricByName(name string) (Metric, bool) {
	for _, m := range Metrics {
		if m.Name == name {
			return m, true
		}
	}
	return Metric{}, false
}

// PrimaryMetric is the metric an experiment's verdict is about, its
// headline: Trials.Headline when the file names one, else what the load
// model leaves free to vary. The closed model and a search measure how
// much the server serves: throughput. The open model sets the rate, so its
// throughput is the rate asked in every trial that keeps up, and a verdict
// on it would be decided before anything was measured: its headline is
// latency p99. The efficiency model (open, below capacity) is about the
// cost: server + database CPU per request.
func PrimaryMetric(e *Experiment) Metric {
	name := "rate"
	switch {
	case e == nil:
	case e.Trials.Headline != "":
		name = e.Trials.Headline
	case e.Load.Model.Efficiency():
		name = "cpu"
	case e.Load.Model == ModelOpen:
		name = "p99"
	}
	if m, ok := MetricByName(name); ok {
		return m
	}
	return Metrics[0] // a headline validation refused; not reached from a valid file
}

// HeadlineNames are the metrics a file may name as its headline: those
// with a direction (a neutral one, like the speed reference, cannot be
// better or worse).
func HeadlineNames() []string {
	var out []string
	for _, m := range Metrics {
		if m.Better != 0 {
			out = append(out, m.Name)
		}
	}
	return out
}

// poolMetric reads a figure of the trial's pool statistics, known when the
// target's /metrics was scraped.
func poolMetric(f func(*PoolStats) float64) func(Trial) (float64, bool) {
	return func(t Trial) (float64, bool) {
		if t.DB.Pool == nil {
			return 0, false
		}
		return f(t.DB.Pool), true
	}
}
