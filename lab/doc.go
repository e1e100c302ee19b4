// Package lab holds pgrst-lab's domain: experiments (variants, scenarios,
// load), the records a run produces (trials, telemetry, events), the metrics
// that verdicts are computed on, and the run loop that drives a Server and a
// Loader through interleaved, repeated trials.
//
// lab imports none of the adapters (configs, systemd, loadgen, telemetry):
// the command line wires them in through the interfaces in this package.
package lab
