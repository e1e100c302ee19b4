// Package local is the lab's run loop made real on this machine: Server
// implements lab.Server (the PostgREST and PostgreSQL configuration through
// package configs, restarts through a systemd.Controller, measurement
// through package telemetry) and Loader implements lab.Loader with package
// loadgen. `lab run` uses them directly; `lab agent` serves a Server to a
// driver on another host. It is the only place besides the command line
// that imports several adapters.
package local
