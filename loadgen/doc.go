// Package loadgen is pgrst-lab's embedded HTTP load generator: as exact as
// wrk2 and nearly as frugal as wrk, usable in-process (Run, Search) and
// standalone (`lab load`).
//
// Load models
//
//   - Open (Config.Open): a constant arrival rate on an ideal timeline. A
//     pacer wakes up about once a millisecond (Go timers cannot do better)
//     and hands every request that is due to the worker that became free
//     last, so the load stays on as few connections as it needs. Latency is
//     measured from the intended start time, so queueing in the server or
//     in the client cannot be hidden (no coordinated omission); the service
//     time (from the actual write) is reported beside it. At most
//     MaxInFlight requests are outstanding (one keep-alive connection per
//     slot, like k6's maxVUs); a request that is due while all slots are
//     busy is not sent and is counted as dropped.
//   - Closed (Config.Closed): N connections, each sending its next request
//     as soon as the previous answer arrived (plus optional think time),
//     like wrk.
//   - Ramp and Search: the open model stepped up over rates, or bisected to
//     the highest rate that meets a Limit (p99, error and drop rates); the
//     measured rate-vs-latency curve is returned with the answer.
//
// Design (why it is cheap): fasthttp does the HTTP/1.1 work, without its
// client's per-request machinery. Each request is written once, at start, by
// a fasthttp.Request into bytes; only `{rand LO HI}` / `{seq START}` fields
// (and the Content-Length of a body holding them) are rendered per request
// into a reused buffer. Each connection has one goroutine, a bufio.Reader
// and one reused fasthttp.Response, whose Read parses every answer (status
// line, headers, Content-Length or chunked body, trailers, 1xx, Connection:
// close, HTTP/1.0; SkipBody for HEAD); the generator itself only dials, sets
// deadlines, retries once on a keep-alive connection the server had closed,
// counts bytes (below the bufio.Reader) and classifies failures (timeout,
// connect, reset, protocol). There is no allocation and no goroutine per
// request. Metrics go into HdrHistograms (ns at 1 µs resolution up to 60 s,
// 3 significant digits), one set per shard of workers (4 shards per
// generator thread, so workers rarely contend), merged at the end: memory
// does not grow with the duration. A collector snapshots interval histograms
// once a second for the per-second series and for live progress.
//
// Limits that come with fasthttp: a response body is read into memory (a
// buffer kept per connection up to 256 KiB, larger ones are dropped after
// the answer); a response header may take up to 1 MiB (the read buffer
// starts at 16 KiB and grows); Transfer-Encoding other than chunked is a
// protocol error.
//
// Why not fasthttp.HostClient or PipelineClient: on this design a response
// costs fasthttp ~0.15 µs of parsing, and the whole request ~1.2 µs of user
// CPU; HostClient's connection pool and per-request deadline handling came
// to ~1.7 µs and PipelineClient's (which also pipelines, so more than one
// request per connection is in flight) ~2.7 µs, with the same 5-6 µs of
// kernel time (closed loop, 50 connections, pinned; bench/hostclientloop).
// They also hide the bytes on the wire and do not keep a request on its
// own connection.
//
// Granularity: the pacer's wake-ups are about 1 ms apart (Go timers), so
// requests leave up to ~1 ms after their intended time and that delay is
// part of the latency (wrk2 behaves the same); the service time excludes
// it. A connection's deadline is refreshed only when less than 90% of the
// timeout is left, so a request times out after 0.9 to 1.0 Timeout.
//
// PostgREST's own load tests: ReadTargets reads vegeta's HTTP targets
// format (test/load/targets.http: "METHOD URL", headers, "@body" files,
// blank lines between targets) into Requests, refusing non-loopback hosts,
// oversized files and bodies outside the file's directory, with file:line
// errors. A header value may hold `{jwt role=NAME exp=+1h [unique|pool=N]}`:
// an HS256 token signed with Config.JWTSecret, pre-signed (one, or N in
// turn) or signed per request without allocating (a sync.Pool of HMACs;
// BenchmarkJWTUnique). With Config.ServerTiming each measured answer's
// Server-Timing header (PostgREST's server-timing-enabled: jwt, parse,
// plan, transaction, response) is parsed in place into one HdrHistogram per
// phase and one for their sum (µs; Summary.Phases, ServerTotal, Timed);
// TestRequestPathDoesNotAllocate covers that path.
//
// Every loop is bounded by the run's duration and, optionally,
// Config.MaxRequests. When the target goes away the requests fail with
// counted errors (connect, reset, timeout) and the run still ends on time.
// Reports: WriteText (wrk-like), WriteJSON (one object; `lab load --json`),
// WriteK6Table (the columns of the original PostgREST benchmark tables),
// WriteSearchText/WriteSearchJSON (the rate-vs-latency curve), and
// TerminalProgress (a live status line, only on a terminal).
//
// Benchmarks: bench/compare-wrk.sh runs `lab load` (closed model) and
// `wrk -t1` alternately against bench/trivialserver, both pinned, and prints
// the req/s and CPU-per-request ratios; bench/open-rates.sh checks the open
// model's rate accuracy, drops, p99 and CPU per request from 100 to 20000
// req/s next to the server's current capacity; bench/hostclientloop is the
// same closed loop over fasthttp's own clients. `go test -bench` has
// BenchmarkClosedLoop (allocations per request) and
// BenchmarkLongOpenRunRSS (flat RSS; LOADGEN_SOAK sets its length).
package loadgen
