// Package host is the server host's side of a run: Server implements
// lab.Server on this machine. It applies a variant (the PostgREST config
// through package configs, PostgreSQL settings, the unit's environment,
// drop-in, argv and CPU pinning through a systemd.Controller), restarts or
// reloads what needs it and gates on readiness, measures each window
// through package telemetry (and systemd/profile with profiling on), and
// always puts the original back: on Restore, and on the next New after a
// crash or kill -9 (the configs journal).
//
// `lab run` uses a Server directly; `lab agent` (package systemd/agent)
// serves one to a driver on another host. With package systemd/stack it
// is the only place besides the command line that imports several
// adapters.
package host
