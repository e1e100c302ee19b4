package loadgen

import (
	"fmt"
	"math"
	"net/url"
	"runtime"
	"strings"
	"time"
)

// Target is where the load goes. URL gives the scheme (http only), the host
// (sent as Host) and a base path prepended to every request path. When
// UnixSocket is set the generator dials that socket instead of URL's host.
type Target struct {
	URL        string
	UnixSocket string
}

// Request is one HTTP request of a scenario. Path and Body may hold
// templates rendered per request: `{rand LO HI}` (uniform integer in
// [LO,HI], from the run's seeded source) and `{seq START}` (a run-wide
// counter starting at START, unique per request); header values also
// `{jwt CLAIM=VALUE... [unique|pool=N]}` (an HS256 token signed with
// Config.JWTSecret, see jwtField). Expect is the expected status (0 means
// any 2xx, ExpectNoServerError any below 500).
type Request struct {
	Method string
	Path   string
	Header map[string]string
	Body   []byte
	Expect int
	// Line is the request's line in its targets file (ReadTargets), 0
	// when it comes from elsewhere.
	Line int
}

// Scenario is a named list of requests, sent round-robin (one position per
// run, shared by its workers).
type Scenario struct {
	Name     string
	Requests []Request
	// Inserts says the scenario adds rows (the built-in POST ones), which
	// a trial deletes afterwards so that the table does not grow.
	Inserts bool
}

// Weighted is a scenario in a mix; a request picks its scenario with
// probability Weight/sum(Weights).
type Weighted struct {
	Scenario Scenario
	Weight   float64
}

// Open is the constant-arrival-rate model.
type Open struct {
	Rate        float64 // requests per second
	MaxInFlight int     // bound on outstanding requests (= connections); 0: DefaultMaxInFlight(Rate)
	// MaxLate is how late a request may still leave when it fell due while
	// all MaxInFlight connections were busy: it waits for the first to come
	// free (its latency counts from when it was due, so the wait is
	// measured, not hidden), and one that would leave later is dropped.
	// 0: DefaultMaxLate; negative: no wait, such a request is dropped at
	// once (the steps of Search and Ramp, whose limits judge drops).
	MaxLate time.Duration
}

// Closed is the fixed-concurrency model.
type Closed struct {
	Connections int
	Think       time.Duration // pause between an answer and the next request
}

// Config is one load run. Exactly one of Open and Closed is set.
type Config struct {
	Target      Target
	Mix         []Weighted
	Open        *Open
	Closed      *Closed
	Duration    time.Duration // measured part
	Warmup      time.Duration // before Duration, discarded
	MaxRequests int64         // stop after this many measured requests (0: no bound but Duration)
	Timeout     time.Duration // per request (0: DefaultTimeout)
	Seed        int64         // for the random template values and the mix
	Threads     int           // GOMAXPROCS and number of metric shards (0: leave GOMAXPROCS)
	CPUs        []int         // pin the process's threads to these CPUs during the run (nil: no pinning)
	JWTSecret   string        // HS256 secret of {jwt} template fields
	// JWTPrivateKey is the PEM RSA private key of {jwt alg=RS256} fields.
	JWTPrivateKey []byte
	// ServerTiming parses each answer's Server-Timing header (PostgREST's
	// server-timing-enabled) into per-phase histograms (Summary.Phases).
	ServerTiming bool
	// ByRequest keeps each request's counts and latencies apart, per
	// answer status (Summary.Endpoints): a targets file's lines.
	ByRequest bool
}

// DefaultTimeout is the per-request timeout when Config.Timeout is 0.
const DefaultTimeout = 10 * time.Second

// MaxDuration bounds Duration+Warmup: every load loop is bounded in time.
const MaxDuration = 24 * time.Hour

// DefaultMaxInFlight is the in-flight bound for an open run at rate r when
// none is given: 50 ms worth of requests, at least 100 (k6's preAllocatedVUs
// in the original benchmark), at most 2000.
func DefaultMaxInFlight(rate float64) int {
	return int(max(100, min(2000, rate/20)))
}

// DefaultMaxLate is Open.MaxLate when none is given. A stall of the
// server (or of a shared machine) shorter than this delays requests, which
// shows in their latency, instead of dropping them; a backlog older than
// this is overload, and its requests are dropped. Waiting opens no
// connection beyond MaxInFlight: more connections slow an overloaded
// server further (real PostgREST 13 served about half as many requests
// when a one-second bound let 1,000 connections in as with 150;
// docs/notebook/2026-12-04-generator-in-flight.md).
const DefaultMaxLate = time.Second

// maxLateMax bounds Open.MaxLate: a request due a minute ago is not load.
const maxLateMax = time.Minute

// Validate returns every problem of the config, each naming the field.
func (c Config) Validate() []error {
	var errs []error
	add := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if c.Target.URL == "" {
		add("Target.URL: required (e.g. http://127.0.0.1:3000)")
	} else if u, err := url.Parse(c.Target.URL); err != nil {
		add("Target.URL %q: %v", c.Target.URL, err)
	} else if u.Scheme != "http" {
		add("Target.URL %q: scheme %q not supported (allowed: http)", c.Target.URL, u.Scheme)
	} else if u.Host == "" && c.Target.UnixSocket == "" {
		add("Target.URL %q: no host", c.Target.URL)
	}
	switch {
	case c.Open == nil && c.Closed == nil:
		add("Open/Closed: one load model is required")
	case c.Open != nil && c.Closed != nil:
		add("Open/Closed: only one load model may be set")
	case c.Open != nil:
		if !(c.Open.Rate > 0) || c.Open.Rate > 10_000_000 {
			add("Open.Rate %v: must be in (0, 1e7] requests/s", c.Open.Rate)
		}
		if c.Open.MaxInFlight < 0 || c.Open.MaxInFlight > 100_000 {
			add("Open.MaxInFlight %d: must be in [0, 100000] (0: default)", c.Open.MaxInFlight)
		}
		if c.Open.MaxLate > maxLateMax {
			add("Open.MaxLate %v: must be at most %v (0: the default %v; negative: drop at once)", c.Open.MaxLate, maxLateMax, DefaultMaxLate)
		}
	case c.Closed != nil:
		if c.Closed.Connections < 1 || c.Closed.Connections > 100_000 {
			add("Closed.Connections %d: must be in [1, 100000]", c.Closed.Connections)
		}
		if c.Closed.Think < 0 {
			add("Closed.Think %v: must be >= 0", c.Closed.Think)
		}
	}
	if c.Duration <= 0 {
		add("Duration %v: must be > 0", c.Duration)
	}
	if c.Warmup < 0 {
		add("Warmup %v: must be >= 0", c.Warmup)
	}
	if c.Duration+c.Warmup > MaxDuration {
		add("Duration+Warmup %v: must be <= %v", c.Duration+c.Warmup, MaxDuration)
	}
	if c.MaxRequests < 0 {
		add("MaxRequests %d: must be >= 0", c.MaxRequests)
	}
	if c.Timeout < 0 {
		add("Timeout %v: must be >= 0", c.Timeout)
	}
	if c.Threads < 0 || c.Threads > 1024 {
		add("Threads %d: must be in [0, 1024]", c.Threads)
	}
	for i, cpu := range c.CPUs {
		if cpu < 0 || cpu >= 1024 {
			add("CPUs[%d] %d: must be in [0, 1024)", i, cpu)
		}
	}
	if len(c.Mix) == 0 {
		add("Mix: at least one scenario is required")
	}
	jwts, keys := newBudget(), newSigner(c.JWTSecret, c.JWTPrivateKey)
	for i, w := range c.Mix {
		where := fmt.Sprintf("Mix[%d] (%s)", i, w.Scenario.Name)
		if !(w.Weight > 0) || math.IsInf(w.Weight, 0) {
			add("%s.Weight %v: must be a finite number > 0", where, w.Weight)
		}
		if len(w.Scenario.Requests) == 0 {
			add("%s.Requests: empty", where)
		}
		for j, r := range w.Scenario.Requests {
			if _, err := compileBudget(r, "", "", keys, jwts); err != nil {
				add("%s.Requests[%d]: %v", where, j, err)
			}
		}
	}
	return errs
}

func (c Config) timeout() time.Duration {
	if c.Timeout > 0 {
		return c.Timeout
	}
	return DefaultTimeout
}

func (c Config) threads() int {
	if c.Threads > 0 {
		return c.Threads
	}
	return runtime.GOMAXPROCS(0)
}

// workers is the number of connections (and worker goroutines).
func (c Config) workers() int {
	if c.Closed != nil {
		return c.Closed.Connections
	}
	if c.Open.MaxInFlight > 0 {
		return c.Open.MaxInFlight
	}
	return DefaultMaxInFlight(c.Open.Rate)
}

// maxLate is how late the open model may send a request that waited for
// a connection (0: it may not wait).
func (c Config) maxLate() time.Duration {
	switch {
	case c.Open == nil || c.Open.MaxLate < 0:
		return 0
	case c.Open.MaxLate == 0:
		return DefaultMaxLate
	}
	return c.Open.MaxLate
}

// hostAndBase splits the target URL into the Host header and base path.
func (t Target) hostAndBase() (host, base string, err error) {
	u, err := url.Parse(t.URL)
	if err != nil {
		return "", "", fmt.Errorf("target url %q: %w", t.URL, err)
	}
	host = u.Host
	if host == "" {
		host = "localhost"
	}
	return host, strings.TrimSuffix(u.EscapedPath(), "/"), nil
}
