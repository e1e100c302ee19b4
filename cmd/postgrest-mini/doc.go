// Command postgrest-mini is the lab's small PostgREST-compatible server: the
// reference target when the real postgrest binary is not installed, and the
// floor of "what plain pgx + fasthttp does with the same queries".
//
// Usage (PostgREST's command line):
//
//	postgrest-mini [--help|--version|--dump-config] [+RTS -N<n> -RTS] [/path/to/config]
//
// Without a file the configuration comes from PGRST_* variables. GHC RTS
// options (+RTS ... -RTS, and GHCRTS before them, as GHC reads it) are
// accepted so the lab can start both servers the same way; -N<n> sets
// GOMAXPROCS, the others have no effect and are logged as ignored.
//
// The config file uses PostgREST's syntax and is read with the lab's own
// parser (configs.Load), PGRST_* environment overrides, $(VAR) and @file
// included. Keys honoured: db-uri (TCP host or Unix-socket directory; URI or
// keyword form), db-schemas (old db-schema), db-anon-role, db-pool,
// db-max-rows (reads of a table only), db-pool-acquisition-timeout (then
// 504 PGRST003), db-pool-max-lifetime,
// db-pool-max-idletime, db-prepared-statements (pgx statement cache, or
// unnamed one-round-trip statements when false), db-channel,
// db-channel-enabled, log-level (crit, error, warn, info: one unbuffered
// access-log line per request at info, per 4xx/5xx at warn, per 5xx at
// error), server-host, server-port, server-unix-socket,
// server-unix-socket-mode, admin-server-host, admin-server-port (/live,
// /ready, /metrics), db-tx-end (commit, rollback and their -allow-override
// forms: then "Prefer: tx=rollback|commit" decides and is echoed in
// Preference-Applied, as PostgREST 13), jwt-secret (HS256 only: a Bearer
// token's role claim becomes the role, request.jwt.claims its claims; a bad
// signature is 401 PGRST301, an expired token 401 PGRST303),
// jwt-cache-max-lifetime (checked; there is no cache, every token is
// verified), server-timing-enabled (a "Server-Timing: jwt;dur=0.0,
// parse;dur=0.1, plan;dur=0.1, transaction;dur=0.8, response;dur=0.0" header
// on answered requests; parse is the query string, plan the body and SQL
// building), db-pre-request (old pre-request: a function, "name" or
// "schema.name", called after the request's settings and before its
// statement, in its transaction; an exception it raises is the answer).
// Other keys are ignored. A config error exits with
// status 1, naming file:line or the key.
//
// Until the schema cache is loaded every API request gets 503 PGRST002 and
// /ready 503; GET / answers 200 (a small OpenAPI document) once ready.
// SIGTERM/SIGINT shut down gracefully; SIGUSR1 and NOTIFY pgrst, 'reload
// schema' reload the schema cache. Under systemd Type=notify it sends
// READY=1 when the schema cache is first loaded and STOPPING=1 on shutdown.
//
// The HTTP API subset (see internal/server): GET/HEAD/POST/PATCH/DELETE on tables
// and views, GET/POST on /rpc/fn; select with columns, aliases, casts and
// embeds through foreign keys in both directions (one-to-one when the key
// is unique) and through junction tables (many-to-many), to any depth; filters eq,
// neq, gt, gte, lt, lte, like, ilike, in, is (and not.), also on embeds
// (track.name=eq.x); order, limit, offset; ?columns= and Prefer:
// return=representation on POST/PATCH/DELETE; Prefer: count=exact (planned
// and estimated are answered exactly) with 206 for partial results; singular responses (Accept:
// application/vnd.pgrst.object+json, 406 PGRST116 unless exactly one row;
// unlike PostgREST a write is not rolled back then). Each request is one transaction as
// db-anon-role with PostgREST's request.* settings; the JSON is built by
// PostgreSQL; values are bind parameters.
//
// Not implemented: JWT algorithms other than HS256 and JWKS secrets, PUT, upserts,
// spread and JSON-path selects,
// Range headers, CSV responses, db-config and
// config reload (SIGUSR2).
//
// Tests and benchmarks (real PostgreSQL through internal/labtest; fuzz targets:
// FuzzParse for the query-string parser, FuzzRead for parser + SQL builder):
//
//	go test ./cmd/postgrest-mini/...
//	go test ./cmd/postgrest-mini/internal/query -run '^$' -fuzz FuzzParse -fuzztime 30s
//	go test ./cmd/postgrest-mini/internal/sqlgen -run '^$' -fuzz FuzzRead -fuzztime 30s
//	go test ./cmd/postgrest-mini -run '^$' -bench . -benchtime 5000x
package main
