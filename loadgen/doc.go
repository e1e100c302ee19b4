// Package loadgen is pgrst-lab's embedded HTTP load generator: as exact as
// wrk2 and nearly as frugal as wrk, usable in-process (Run, Search) and
// standalone (`lab load`).
//
// Load models
//
//   - Open (Config.Open): a constant arrival rate on an ideal timeline.
//     The event loop sleeps until the next request is due (nanosecond
//     timeouts) and sends it on the connection that became free last, so
//     the load stays on as few connections as it needs. Latency is
//     measured from the intended start time, so queueing in the server or
//     in the client cannot be hidden (no coordinated omission); the service
//     time (from the actual write) is reported beside it. An answer ends
//     when its last bytes reached the machine: the sockets carry the
//     kernel's receive stamps (SO_TIMESTAMPNS), so while a free connection
//     is left the loop need not wake up for each answer; it reads those
//     that came in when it wakes for the next send. Without stamps (a
//     kernel that gives none) it wakes for every answer and times it then. At most
//     MaxInFlight requests are outstanding (one keep-alive connection per
//     slot, like k6's maxVUs); a request that is due while all slots are
//     busy waits for the first to come free, as wrk2's do (its latency
//     counts from when it was due; it is counted as waited), up to
//     Open.MaxLate (1 s), and is dropped beyond that: a stall of the server
//     delays requests instead of dropping them, without opening more
//     connections than the bound. The steps of Search and Ramp drop such
//     a request at once.
//   - Closed (Config.Closed): N connections, each sending its next request
//     as soon as the previous answer arrived (plus optional think time),
//     like wrk.
//   - Ramp and Search: the open model stepped up over rates, or bisected to
//     the highest rate that meets a Limit (p99, error and drop rates); the
//     measured rate-vs-latency curve is returned with the answer.
//
// Design (why it is cheap): one event loop per generator thread
// (GOMAXPROCS), like wrk's: each owns a share of the connections as raw
// non-blocking sockets in its own epoll instance, waits in epoll_pwait2
// until an answer arrives or the next request is due (or, in the open
// model below saturation, only until the next request is due), writes
// requests, reads answers and records them. Reads, writes and waits are raw system
// calls, so the runtime never hands the loop's thread over to another
// around them (on a 2-core machine shared with the server that hand-off
// cost more than the call); a wait lasts at most 5 ms and the loop yields
// between waits, so the program's other goroutines run. There is no
// goroutine, channel, timer or allocation per request. fasthttp does the
// HTTP/1.1 work: each request is written once, at start, by a
// fasthttp.Request into bytes; only `{rand LO HI}` / `{seq START}` fields
// (and the Content-Length of a body holding them) are rendered per request
// into a reused buffer. The common answer (HTTP/1.1, token header names,
// printable values, one Content-Length, no Connection or
// Transfer-Encoding, nothing after the body: PostgREST's) is read in place,
// in one pass, by the generator's own quickParse; any other answer, and any
// it is in doubt about, by one reused fasthttp.Response per connection
// (chunked bodies, trailers, 1xx, Connection: close, HTTP/1.0; SkipBody for
// HEAD). A fuzz test holds the two to the same status, length and
// Server-Timing for every answer quickParse accepts. On real PostgREST
// fasthttp's parse was the largest part of the generator's own CPU per
// request (its header fields and the body copied into the Response, with
// the server's run between two answers leaving the cache cold); the quick
// read takes about 0.1 µs, fasthttp about 0.22 µs on a hot cache
// (BenchmarkParseAnswer). Both parse the bytes read so far; an answer not
// all there yet is parsed again when more arrives (a body of known length
// only once it is complete). The
// generator itself only dials, retries once on a keep-alive connection the
// server had closed, counts bytes and classifies failures (timeout,
// connect, reset, protocol). Metrics go into HdrHistograms (ns at 1 µs
// resolution up to 60 s, 3 significant digits), one set per shard of
// connections, merged at the end: memory does not grow with the duration. A
// collector snapshots interval histograms once a second for the per-second
// series and for live progress.
//
// Limits: an answer is read into memory whole (a connection's read buffer,
// and fasthttp's body buffer when it parses, are kept up to 256 KiB, larger
// ones dropped after the answer); a response header may take up to 1 MiB
// (fasthttp's buffer starts at 16 KiB and grows); Transfer-Encoding other
// than chunked is a protocol error.
//
// Why not fasthttp.HostClient or PipelineClient: on the design before the
// event loop (a goroutine per connection, same parsing) a response cost
// fasthttp ~0.15 µs of parsing, and the whole request ~1.2 µs of user CPU;
// HostClient's connection pool and per-request deadline handling came
// to ~1.7 µs and PipelineClient's (which also pipelines, so more than one
// request per connection is in flight) ~2.7 µs, with the same 5-6 µs of
// kernel time (closed loop, 50 connections, pinned; bench/hostclientloop).
// They also hide the bytes on the wire and do not keep a request on its
// own connection.
//
// Timing: a request leaves at its intended time (within the kernel's timer
// slack, ~50 µs), or ahead of it when the loop is awake anyway for another
// answer or request, by up to one interval of the loop's schedule (250 µs
// to 1 ms): that saves a wake-up per request, and such a request counts its
// latency from its send, so nothing is hidden. A late request (the loop was
// busy) counts from its intended time; the service time excludes the
// delay. The loop checks deadlines when the earliest one is due, so a
// request times out after its Timeout (within the loop's wake-up).
//
// PostgREST's own load tests: ReadTargets reads vegeta's HTTP targets
// format (test/load/targets.http: "METHOD URL", headers, "@body" files,
// blank lines between targets) into Requests, refusing non-loopback hosts,
// oversized files and bodies outside the file's directory, with file:line
// errors. A header value may hold `{jwt role=NAME exp=+1h [unique|pool=N]}`:
// an HS256 token signed with Config.JWTSecret (with alg=RS256, an RS256
// one signed with Config.JWTPrivateKey; kid=ID names the key), pre-signed (one, or N in
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
// Reports are written by lab/report/load (`lab load`'s text, JSON, k6
// table and search curve, from the Result cmd/lab converts); loadgen keeps
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
