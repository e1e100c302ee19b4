// Package wire connects the lab's run loop to its adapters: Loader runs
// trials with package loadgen, Local is the server side (configs, systemd,
// telemetry) on the machine the lab runs on. It is the only place besides
// the command line that imports several adapters.
package wire
