// Package loadgen is pgrst-lab's embedded HTTP load generator: as exact as
// wrk2 and nearly as frugal as wrk, usable in-process (Run, Search) and
// standalone (`lab load`).
//
// Load models
//
//   - Open (Config.Open): a constant arrival rate on an ideal timeline. A
//     pacer wakes up about once a millisecond (Go timers cannot do better)
//     and hands every request that is due to a free worker. Latency is
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
// Design (why it is cheap): requests are pre-built into bytes once (only
// `{rand LO HI}` / `{seq START}` fields are rendered per request into a
// reused buffer), the HTTP/1.1 client is a minimal hand-written one over a
// net.Conn (no allocation per request, no goroutine per request, a
// goroutine per connection), and metrics go into HdrHistograms (µs, 1 µs
// .. 60 s, 3 significant digits), one set per generator thread, merged at
// the end: memory does not grow with the duration. A collector snapshots
// interval histograms once a second for the per-second series and for live
// progress.
//
// Granularity: the pacer's wake-ups are about 1 ms apart (Go timers), so
// requests leave up to ~1 ms after their intended time and that delay is
// part of the latency (wrk2 behaves the same); the service time excludes
// it. A connection's deadline is refreshed only when less than 90% of the
// timeout is left, so a request times out after 0.9 to 1.0 Timeout.
//
// Every loop is bounded by the run's duration and, optionally,
// Config.MaxRequests. When the target goes away the requests fail with
// counted errors (connect, reset, timeout) and the run still ends on time.
package loadgen
