// Package agent puts the lab's server side on another machine: a handler
// that serves any lab.Server over a small versioned HTTP+JSON API (what
// `lab agent` runs on the server instance), and a Client that implements
// lab.Server and lab.Window over that API (what `lab run --agent URL` uses
// on the client instance). The run loop cannot tell the two apart.
//
// # API (version 1)
//
// Every request carries "Authorization: Bearer TOKEN". Bodies are JSON,
// at most MaxBody bytes, and unknown fields are refused, so a request can
// never name a file, unit or URI: what the agent touches is fixed by its
// own config. Mutating calls carry the lease (Lab-Session) and a request
// ID (Lab-Request-Id); a repeated ID with the same body (compared by its
// SHA-256) gets the first answer again, so the client retries safely after
// a dropped connection; the same ID with another body is 409.
//
//	GET    /v1/health                 agent alive; version; no lease needed
//	GET    /v1/clock                  receive/send times, for the clock offset
//	GET    /v1/describe               lab.Host and lab.TargetInfo (URL as advertised)
//	POST   /v1/session                take the agent (409 while another driver holds it)
//	POST   /v1/session/renew          renew the lease (the dead-man switch)
//	DELETE /v1/session                end it (restores if a variant is in place)
//	POST   /v1/apply                  {variant} -> AppliedV1; restart and readiness gate
//	POST   /v1/restore                original config back, target restarted
//	POST   /v1/windows                start telemetry -> {id, started}
//	POST   /v1/windows/{id}/stop      {requests} -> TelemetryV1 (kept until deleted)
//	GET    /v1/windows/{id}           the kept telemetry of a stopped window
//	DELETE /v1/windows/{id}           forget it
//
// # Leases
//
// A driver holds the agent through a lease (Options.Lease, 10 s by
// default) that the client renews every Lease/5: the dead-man switch.
// (The wire calls it a session, as version 1 always has: the paths
// /v1/session, the Lab-Session header and health's "session" field keep
// that name; in the code and these docs it is a lease, so that "session"
// means only a run's session, package lab/session.) When it expires (the driver was killed, or the
// network is gone) the agent restores the original configuration, if a
// variant was applied, and ends the lease. The restore is retried (1 s,
// doubling up to 30 s, each failure logged) until it succeeds, and no new
// lease starts before. Apply and restore are serialised, and apply checks
// the lease again once its body is read: a body trickled in past the lease
// is refused with 410, and a restore cannot mark a concurrent apply clean.
// When PostgreSQL cannot start (a variant set shared_buffers = 200GB), the
// server side restores postgresql.auto.conf from the journal's copy of its
// original bytes and restarts it, with no connection needed.
//
// # Limits
//
// A lease has at most Options.MaxWindows (8) windows recording (429
// beyond). Ending a lease (close, lease expiry, shutdown) drains its
// windows and closes the set: a window whose setup finishes afterwards is
// stopped at once and answered 410, and the server side's recordings
// (sampler, speed reference, pool scraper) end with the window's context,
// so no recording outlives its lease. Serve keeps at most Options.MaxConnections (64) connections
// (Accept waits), and a 401 closes its connection. Headers are limited to
// 16 KiB, bodies to MaxBody, a request's headers must arrive in 10 s.
//
// # Policy
//
// Variants come from the driver, so they are checked before anything is
// touched: first against package capability (the one table lab validate
// and the host's reconcile use), then against the agent's Policy. Refused with
// 403: PostgreSQL settings, environment variables (by exact name),
// drop-in settings and binaries outside the allow-lists; PostgreSQL
// settings that run a program, load a library or name a file, directory
// or address, whatever the config lists (an AGENT.toml listing one does
// not load); PostgREST keys that name addresses or paths (also when set
// as PGRST_* variables); privileged keys (roles, schemas, functions,
// jwt-secret, a db-uri other than "tcp"/"unix") unless the config lists
// them; @file values; args other than GHC runtime options between +RTS
// and -RTS, and runtime options (in args or GHCRTS) outside the one
// allow-list of internal/ghcrts (no option that writes a file, -N at most
// 256). The server side refuses with 403 too a db-uri or db-anon-role
// that is, or is a member of, a SUPERUSER or BYPASSRLS role, asking the
// database. Refused with 422: unknown or misspelled keys
// (with a suggestion) and non-printing characters in values (controls,
// U+2028/U+2029, bidi overrides). Environment variables reach the target
// as a list (never a line that is parsed again), and package configs
// renders every value escaped, so no value can add a line to a file.
//
// # Replies and logs
//
// Replies never carry secrets (jwt-secret is "<redacted>", db-uri
// passwords are replaced, and a connection string that cannot be parsed
// is hidden rather than shown) nor the log lines of a failed unit (they stay in
// the agent's log, with passwords hidden). Log entries quote what a client
// sent (%q), so no request can forge a log line. The token file and the TLS
// key must be mode 0600 and owned by the agent's user. SECURITY.md states
// the threat model.
//
// # Clock and telemetry
//
// Open measures the agent's clock offset NTP-style (GET /v1/clock, best of
// 8 exchanges). A window's samples are shifted to count from when Watch
// returned on the driver (the start of its measured load) and events are
// converted to the driver's clock. `lab run --agent` records the offset in
// agent.json next to run.json.
//
// # Use
//
//	h, _ := agent.NewHandler(local, agent.Options{Token: tok, Policy: cfg.Allow})
//	agent.Serve(ctx, ln, h, tlsConfig)                  // on the server
//
//	c, _ := agent.NewClient("https://db1:7171", agent.ClientOptions{Token: tok, TLS: tc})
//	c.Open(ctx); defer c.Close(ctx)
//	run, err := (&lab.Runner{Server: c, Loader: loader, Decided: stats.DecidedFunc}).Run(ctx, e) // on the client
package agent
