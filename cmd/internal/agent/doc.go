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
// own config. Mutating calls carry the session (Lab-Session) and a request
// ID (Lab-Request-Id); a repeated ID gets the first answer again, so the
// client retries safely after a dropped connection.
//
//	GET    /v1/health                 agent alive; version; no session needed
//	GET    /v1/clock                  receive/send times, for the clock offset
//	GET    /v1/describe               lab.Host and lab.TargetInfo (URL as advertised)
//	POST   /v1/session                take the agent (409 while another driver holds it)
//	POST   /v1/session/renew          renew the lease (the dead-man switch)
//	DELETE /v1/session                end it (restores if a variant is in place)
//	POST   /v1/apply                  {variant} -> lab.Applied; restart and readiness gate
//	POST   /v1/restore                original config back, target restarted
//	POST   /v1/windows                start telemetry -> {id, started}
//	POST   /v1/windows/{id}/stop      {requests} -> lab.Telemetry (kept until deleted)
//	GET    /v1/windows/{id}           the kept telemetry of a stopped window
//	DELETE /v1/windows/{id}           forget it
//
// # Dead-man switch
//
// A session holds a lease (Options.Lease, 10 s by default) that the client
// renews every Lease/5. When it expires (the driver was killed, or the
// network is gone) the agent restores the original configuration, if a
// variant was applied, and ends the session.
//
// # Policy
//
// Variants come from the driver, so they are checked against the agent's
// Policy before anything is touched: PostgreSQL settings, environment
// names, drop-in settings and binaries outside its allow-lists, PostgREST
// keys that name addresses or paths, a db-uri other than "tcp"/"unix",
// @file values (403) and control characters in values (422) are refused.
// Package configs is the second line of defence: it renders every value
// escaped, so no value can add a line to a config file.
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
//	run, err := (&lab.Runner{Server: c, Loader: loader}).Run(ctx, e) // on the client
package agent
