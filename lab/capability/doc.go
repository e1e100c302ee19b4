// Package capability is the one table of what a variant may change, per
// kind of setting: PostgREST config keys, environment variables,
// PostgreSQL settings, unit drop-in keys, and the binary and its
// arguments. `lab validate`, the agent's policy and the host's reconcile
// all ask this package, so they cannot disagree. (Which drop-in keys the
// direct supervisor can apply without cgroups is that supervisor's own
// fact.)
//
// It sits below everything else: it imports only the standard library,
// leaves of internal/ (cpulist for CPU lists, ghcrts for GHC runtime
// options) and lab/postgrest (PostgREST's table of keys, whose Class and
// Shown columns are the rules for PostgREST keys), so the domain (package lab), the adapters (configs, systemd,
// ...) and the wiring in cmd/ may all import it without breaking the
// layering (lab does not import adapters, adapters do not import each
// other). It holds rules,
// not policy: which of the allowed names an agent actually permits comes
// from that agent's config (see host/agent.Policy).
//
// Every rule treats its input as hostile: values are single-line printable
// text, @file values (PostgREST reads the named file) are refused, keys that
// name an address or a path are never variant settings, and an environment
// variable is checked with the rules of the PostgREST key it sets. A
// PostgreSQL setting that runs a program, loads a library, writes or names
// a file, a directory or an address, or lowers a protection every request
// runs behind (session_replication_role, a server-wide search_path), is
// refused by its name (a list and name patterns, each with why, in
// pgnever.go), whatever an agent's config lists. GHC runtime options get one
// rule wherever they come from, +RTS arguments or GHCRTS: internal/ghcrts's
// vocabulary of tuning options, bounded, none that writes a file.
//
// It is also the one rule of what a value may be shown as, wherever the
// lab shows one (the agent's replies, run.json, reports, the store):
// hidden unless known to be no secret (Redact, RedactEnv,
// RedactPostgreSQL). A PostgREST key's value is shown only when its row in
// PostgREST's table says Visible; app.settings.*, jwt-secret and keys the
// table lacks are hidden, a db-uri keeps all but its passwords.
package capability
