// Package host is the room of the server host's side of a run: what runs on
// the machine where PostgREST runs. It holds no code of its own; its
// packages are:
//
//	host/reconcile   applies a variant (PostgREST config, PostgreSQL settings, the unit) and always restores
//	host/telemetry   what the lab observes: CPU, memory, OOM kills, crashes, database counters, /metrics
//	host/profiler    perf record of the services, GHC runtime statistics
//	host/stack       the local stack: a PostgreSQL cluster and a target under one state directory
//	host/agent       `lab agent`: host/reconcile served over HTTPS to a driver on another host
//
// telemetry and profiler are adapters (they import nothing of the lab's
// domain); reconcile, stack and agent compose them with package configs and
// a systemd.Controller. See docs/architecture.md.
package host
