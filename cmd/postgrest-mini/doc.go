// Command postgrest-mini is the lab's small PostgREST-compatible server: the
// reference target when the real postgrest binary is not installed, and the
// floor of "what plain pgx + fasthttp does with the same queries".
//
// Usage:
//
//	postgrest-mini /path/to/config
//
// The config file uses PostgREST's syntax and is read with the lab's own
// parser (package configs), PGRST_* environment overrides included. Keys
// honoured: db-uri (TCP or Unix-socket directory), db-schemas (db-schema),
// db-anon-role, db-pool, db-pool-acquisition-timeout, db-pool-max-lifetime,
// db-pool-max-idletime, db-prepared-statements, db-channel,
// db-channel-enabled, log-level, server-host, server-port,
// server-unix-socket, server-unix-socket-mode, admin-server-host,
// admin-server-port. Other keys are ignored. A config error exits with
// status 1 and says file:line.
//
// Signals: SIGTERM/SIGINT shut down gracefully; SIGUSR1 reloads the schema
// cache (as does NOTIFY pgrst, 'reload schema').
//
// The API subset and its semantics are described in package
// internal/server; the query-string language in internal/query.
package main
