// Package reconcile is the server host's side of a run: Server implements
// lab.Server on this machine. It applies a variant (the PostgREST config
// through package configs, PostgreSQL settings, the unit's environment,
// drop-in, argv and CPU pinning through a systemd.Controller), restarts or
// reloads what needs it and gates on readiness, measures each window
// through package telemetry (and host/profiler with profiling on), and
// always puts the original back: on Restore, and on the next New after a
// crash or kill -9 (the configs journal).
//
// Applying is a reconcile, one concept to a file:
//
//   - applied (applied.go) is what is in place, as one value: the config
//     the target runs, the PostgreSQL settings and pinning, the unit's
//     drop-in, environment and command line, and whether a restart failed
//     (then what runs is unknown).
//   - wanted (wanted.go) is the value a variant wants, computed from the
//     original config and validated; it touches nothing.
//   - plan (plan.go) is the pure diff of the two: the steps for what
//     differs (pin, PostgreSQL settings and restart, drop-in, environment,
//     unit reinstall) and whether the target reloads its config (only
//     reloadable PostgREST keys differ, on real PostgREST in a unit and log
//     the lab owns) or restarts, which it does whenever it cannot reload.
//   - the executor (execute.go, pgpin.go, pgsettings.go, unit.go) takes
//     the steps against the Controller, PostgreSQL and the journal and
//     updates applied for each one that succeeded, so the next plan
//     repeats what failed.
//
// Restore is the same reconcile towards the original (no variant,
// unpinned), with the journal restoring the config; Recover (restore.go)
// puts back what a killed run left.
//
// `lab run` uses a Server directly; `lab agent` (package host/agent)
// serves one to a driver on another host. With package host/stack it
// is the only place besides the command line that imports several
// adapters.
package reconcile
