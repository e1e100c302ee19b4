package load

import "time"

// Result is one load run as the load report reads it: loadgen.Summary's
// totals and its per-second series.
type Result struct {
	Scenario                                 string
	Model                                    string  // "open" or "closed"
	TargetRate                               float64 // open model's asked rate
	Connections                              int     // connections (closed) or the in-flight bound (open)
	Duration                                 time.Duration
	Requests, Errors, Dropped, Waited        int64
	Rate                                     float64       // successful answers (Requests - Errors) / Duration
	ErrorRate                                float64       // Errors / Requests
	DroppedRate                              float64       // Dropped / (Requests + Dropped)
	Min, Mean, P50, P90, P95, P99, P999, Max time.Duration // of the successful answers
	ServiceMin, ServiceMean, ServiceP50      time.Duration
	ServiceP90, ServiceP95, ServiceP99       time.Duration
	ServiceMax                               time.Duration
	SendDelayP50, SendDelayP99, SendDelayMax time.Duration
	// Phases are the Server-Timing phases' means of the Timed answers that
	// carried the header, ServerTotal their per-request sum.
	Phases            []Phase
	ServerTotal       time.Duration
	Timed             int64
	BytesIn, BytesOut int64
	MaxInFlight       int
	Status            map[int]int64
	ErrorKinds        map[string]int64
	Series            []Second
}

// Phase is one Server-Timing phase's mean.
type Phase struct {
	Name string
	Mean time.Duration
}

// Second is one second of the measured part.
type Second struct {
	At                        time.Duration // end of the second, from the start of the measured part
	Requests, Errors, Dropped int64
	P50, P99, Max             time.Duration
}

// Search is a rate search or ramp: each step's result and the highest
// rate that met the limit.
type Search struct {
	Best  float64
	Curve []Step
}

// Step is one rate of a search: the rate asked, whether it met the limit
// (why not) and what was measured.
type Step struct {
	Asked float64
	Pass  bool
	Why   string
	Result
}
