package loadgen

import (
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// Result is what a run measured (warm-up excluded).
type Result struct {
	Summary Summary
	Series  []Second                // one entry per second of the measured part
	Latency *hdrhistogram.Histogram // successful answers' latency from intended start, in ns
	Service *hdrhistogram.Histogram // successful answers' service time (from the actual write), in ns
}

// Summary is the run's totals. Latency is measured from the intended start
// time (open model) or the send time (closed model); Service* from the send.
// Requests counts completed requests, failed ones included; Errors the
// failed ones (by kind in ErrorKinds: timeout, connect, reset, status,
// protocol, other); Dropped the ones the open model could not start
// because MaxInFlight were outstanding for longer than Open.MaxLate;
// Waited those it started late for that reason, when a connection came
// free (counted in Requests, their latency from when they were due).
//
// Throughput and latency are the successful answers' (Succeeded): a
// request that failed or was dropped never counts as throughput, and its
// time is in no percentile, so a server that fails fast does not look
// fast.
//
// Means, minima and maxima are exact; percentiles follow k6's rule on the
// histograms (quantiles), so that the service time's figures are k6's
// http_req_duration avg, min, med, p(90), p(95) and max of the same
// requests (answered ones: a transport error has no duration).
type Summary struct {
	Requests, Errors, Dropped, Waited int64
	Duration                          time.Duration
	// Elapsed is the real time the measured answers took to arrive: the
	// window's length plus how much later its last answers arrived than
	// its first (the median latency of the last 5 % to finish less that of
	// the first 5 %: latencyDrift), and at least Duration. A server that
	// keeps pace answers them over the window's length, however long each
	// takes; one that falls behind answers the last of them after the
	// window, and is not credited with them inside it. (In the closed
	// model, or without timed answers: from the first answer to the last.)
	Elapsed time.Duration
	Rate    float64 // Succeeded / Elapsed: successful answers per second, sustained
	// Latency of the successful answers (all zero when there were none).
	Min, Mean, P50, P90, P95, P99, P999, Max time.Duration
	// Service* is the service time (from the actual send; the same as the
	// latency in the closed model), with the latency's percentiles.
	ServiceMin, ServiceMean, ServiceP50, ServiceP90 time.Duration
	ServiceP95, ServiceP99, ServiceP999, ServiceMax time.Duration
	// SendDelay* (open model): how late requests left compared with their
	// intended time (0 for one sent ahead): the generator's own share of
	// the latency (a busy event loop, CPU starvation). Small send delays with a large latency
	// mean the time was spent in the server.
	SendDelayP50, SendDelayP99, SendDelayMax time.Duration
	// FirstByte* is the time to the first byte of the successful answers
	// (from the same start as the latency, which is the time to the last
	// byte): for large answers, how long PostgREST takes to start
	// sending, apart from how long the sending takes.
	FirstByteP50, FirstByteP90, FirstByteP99, FirstByteMax time.Duration
	Status                                                 map[int]int64
	ErrorKinds                                             map[string]int64
	BytesIn, BytesOut                                      int64
	MaxInFlight                                            int
	Model                                                  string  // "open" or "closed"
	TargetRate                                             float64 // open model's asked rate
	Connections                                            int     // connections (closed) or the in-flight bound (open)
	Scenario                                               string  // names of the mix
	// Phases are the Server-Timing phases (PhaseNames order) of the Timed
	// measured answers that carried a complete header (Config.ServerTiming;
	// PostgREST sends it on successful answers only), ServerTotal their
	// per-request sum. Empty when no answer had one.
	Phases      []Phase
	ServerTotal Phase
	Timed       int64
	// Endpoints are the requests measured apart (Config.ByRequest), one
	// row per request and answer status, in the requests' order.
	Endpoints []EndpointStat
}

// Succeeded is the number of successful answers (Requests - Errors): the
// status the request expects, in time, without a transport error (see
// errKind and tmpl.accepts, where failure is decided).
func (s Summary) Succeeded() int64 { return s.Requests - s.Errors }

// ErrorRate is Errors/Requests (0 without requests).
func (s Summary) ErrorRate() float64 {
	if s.Requests == 0 {
		return 0
	}
	return float64(s.Errors) / float64(s.Requests)
}

// DroppedRate is Dropped/(Requests+Dropped).
func (s Summary) DroppedRate() float64 {
	if s.Requests+s.Dropped == 0 {
		return 0
	}
	return float64(s.Dropped) / float64(s.Requests+s.Dropped)
}

// Second is one second of the measured part.
type Second struct {
	At               time.Duration // end of the second, from the start of the measured part
	Requests, Errors int64
	Dropped          int64
	P50, P99, Max    time.Duration // of the second's successful answers
	BytesIn          int64
}

// Progress is a live snapshot, delivered about once a second.
type Progress struct {
	Elapsed, Total time.Duration // including warm-up
	Warmup         bool
	Requests       int64   // measured so far
	Errors         int64   // measured so far
	Dropped        int64   // measured so far
	Rate           float64 // successful answers per second in the last interval
	P99            time.Duration
	InFlight       int
}
