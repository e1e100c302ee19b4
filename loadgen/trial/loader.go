package trial

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"golang.org/x/sys/unix"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/loadgen"
)

// Loader runs a trial's load with package loadgen against one target.
type Loader struct {
	Target  loadgen.Target
	Threads int
	CPUs    []int
	// MaxRequests bounds every trial's count (0 = rate * duration * 2 + 1e6):
	// load loops are bounded in time and in count.
	MaxRequests int64
}

// Load implements lab.Loader.
func (l *Loader) Load(ctx context.Context, spec lab.LoadSpec) (lab.LoadOutcome, error) {
	cfg, err := l.config(spec)
	if err != nil {
		return lab.LoadOutcome{}, err
	}
	progress := func(p loadgen.Progress) {
		if spec.Progress != nil {
			spec.Progress(lab.LoadProgress{Elapsed: p.Elapsed, Total: p.Total, Warmup: p.Warmup, Rate: p.Rate,
				P99Ms: ms(p.P99), Errors: p.Errors})
		}
	}
	if spec.Load.Model.SearchesEachTrial() {
		search := func() (*loadgen.SearchResult, error) {
			return loadgen.Search(ctx, cfg, limit(spec.Load.Limit), progress)
		}
		if spec.Load.Limit.Sustained() {
			search = func() (*loadgen.SearchResult, error) {
				return loadgen.Sustain(ctx, cfg, limit(spec.Load.Limit), spec.Estimate, progress)
			}
		}
		sr, err := search()
		if err != nil {
			return lab.LoadOutcome{}, fmt.Errorf("search: %w", err)
		}
		return searchOutcome(sr, spec.Load.Warmup), nil
	}
	cpu0 := processCPU()
	res, err := loadgen.Run(ctx, cfg, progress)
	if err != nil {
		return lab.LoadOutcome{}, err
	}
	return lab.LoadOutcome{Stats: stats(res.Summary), Series: series(res.Series),
		GeneratorCPU: measuredShare(processCPU()-cpu0, spec.Load.Warmup, spec.Load.Duration)}, nil
}

// measuredShare is the part of a load's CPU time that falls in its measured
// window: the load runs at the same rate (or the same connections) from
// warm-up to end, so its CPU is spread evenly over both, and the figures
// made from it (share of the machine per measured second, µs per measured
// request) compare like with like.
func measuredShare(cpu float64, warmup, duration time.Duration) float64 {
	if total := warmup + duration; total > 0 {
		return cpu * duration.Seconds() / total.Seconds()
	}
	return cpu
}

// processCPU is this process's CPU time so far, in seconds: the load
// generator's share of the machine (with the lab's own sampling, which
// belongs to the measuring side too). 0 when it cannot be read.
func processCPU() float64 {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

func (l *Loader) config(spec lab.LoadSpec) (loadgen.Config, error) {
	sc, err := scenario(spec)
	if err != nil {
		return loadgen.Config{}, err
	}
	key, err := loadgen.ReadJWTPrivateKey(spec.JWTPrivateKey)
	if err != nil {
		return loadgen.Config{}, err
	}
	ld := spec.Load
	cfg := loadgen.Config{Target: l.Target, Mix: []loadgen.Weighted{{Scenario: sc, Weight: 1}}, Duration: ld.Duration,
		Warmup: ld.Warmup, Timeout: ld.Timeout, Seed: spec.Seed, Threads: ld.Threads, CPUs: l.CPUs, MaxRequests: l.MaxRequests,
		JWTSecret: spec.JWTSecret, JWTPrivateKey: key, ServerTiming: true, ByRequest: byRequest(spec)}
	if l.Threads > 0 {
		cfg.Threads = l.Threads
	}
	if len(spec.CPUs) > 0 { // the experiment's [partition] generator
		cfg.CPUs = spec.CPUs
	}
	if err := ld.Model.CheckOneLoad(); err != nil {
		return cfg, err
	}
	switch {
	case ld.Model.Closed():
		cfg.Closed = &loadgen.Closed{Connections: ld.Connections, Think: ld.Think}
	case ld.Model.Arrivals():
		cfg.Open = &loadgen.Open{Rate: startRate(ld), MaxInFlight: ld.MaxInFlight}
	}
	if cfg.MaxRequests == 0 {
		cfg.MaxRequests = boundFor(ld)
	}
	if errs := cfg.Validate(); len(errs) > 0 {
		return cfg, fmt.Errorf("load: %v", errs)
	}
	return cfg, nil
}

// startRate is the open model's rate, and the rate a search starts from:
// Rate, else the limit's min_rate, else 100 req/s.
func startRate(ld lab.Load) float64 {
	switch {
	case ld.Rate > 0:
		return ld.Rate
	case ld.Limit.MinRate > 0:
		return ld.Limit.MinRate
	}
	return 100
}

// limit is a search's limit as package loadgen takes it.
func limit(l lab.Limit) loadgen.Limit {
	return loadgen.Limit{P99: l.P99, P95: l.P95, MaxErrorRate: l.ErrorRate(), MaxDroppedRate: l.DroppedRate(), MaxRate: l.MaxRate,
		Hold: l.Hold, MinAchieved: l.MinAchieved}
}

// Rule is the load generator's search rule as the estimates of a run's
// time need it (lab.SearchRule): a plain search's steps
// (loadgen.MaxSearchSteps, SearchStepsTo), a sustained one's
// (loadgen.SustainSteps, SustainTypical).
type Rule struct{}

var _ lab.SearchRule = Rule{}

// Steps implements lab.SearchRule.
func (Rule) Steps(ld lab.Load) (int, time.Duration) {
	if ld.Limit.Sustained() {
		return loadgen.SustainSteps(ld.Duration, ld.Warmup, limit(ld.Limit))
	}
	n := loadgen.MaxSearchSteps(startRate(ld), limit(ld.Limit))
	return n, time.Duration(n) * (ld.Warmup + ld.Duration)
}

// Typical implements lab.SearchRule: a repeat of a plain search starts at
// 80 % of the capacity, one of a sustained search holds at it.
func (Rule) Typical(ld lab.Load, capacity float64, again bool) time.Duration {
	if ld.Limit.Sustained() {
		return loadgen.SustainTypical(ld.Duration, ld.Warmup, limit(ld.Limit), !again)
	}
	if again {
		ld.Limit.MinRate = max(0.8*capacity, ld.Limit.MinRate)
	}
	return time.Duration(loadgen.SearchStepsTo(startRate(ld), limit(ld.Limit), capacity)) * (ld.Warmup + ld.Duration)
}

// boundFor is a generous count bound: far above what the machine can do in
// the trial's time, so only a runaway loop ever reaches it.
func boundFor(ld lab.Load) int64 {
	sec := (ld.Duration + ld.Warmup).Seconds()
	return int64(sec*1_000_000) + 1_000_000
}

// byRequest: a targets file's lines are measured apart, each its own
// verdict.
func byRequest(spec lab.LoadSpec) bool { return spec.Custom != nil && spec.Custom.Targets != "" }

func scenario(spec lab.LoadSpec) (loadgen.Scenario, error) {
	if spec.Custom == nil {
		return loadgen.Builtin(spec.Scenario)
	}
	c := spec.Custom
	if c.Targets != "" {
		reqs, err := loadgen.ReadTargets(c.Targets)
		if err != nil {
			return loadgen.Scenario{}, fmt.Errorf("scenario %s: %w", c.Name, err)
		}
		if c.Line > 0 {
			if c.Line > len(reqs) {
				return loadgen.Scenario{}, fmt.Errorf("scenario %s: line %d of %s: the file has %d requests", c.Name, c.Line, c.Targets, len(reqs))
			}
			reqs = reqs[c.Line-1 : c.Line]
		}
		return loadgen.Scenario{Name: c.Name, Requests: reqs}, nil
	}
	r, err := customRequest(c)
	if err != nil {
		return loadgen.Scenario{}, err
	}
	return loadgen.Scenario{Name: c.Name, Requests: []loadgen.Request{r}}, nil
}

// customRequest is a custom scenario's request, its body_file read as a
// bounded regular file (a FIFO or a device is refused without blocking).
func customRequest(c *lab.Scenario) (loadgen.Request, error) {
	body := []byte(c.Body)
	if c.BodyFile != "" {
		b, err := loadgen.ReadFileBounded(c.BodyFile, loadgen.MaxBodyFileSize)
		if err != nil {
			return loadgen.Request{}, fmt.Errorf("scenario %s: body_file %s: %w", c.Name, c.BodyFile, err)
		}
		body = b
	}
	return loadgen.Request{Method: c.Method, Path: c.Path, Header: c.Header, Body: body, Expect: c.Expect}, nil
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func stats(s loadgen.Summary) lab.LoadStats {
	st := lab.LoadStats{Model: lab.Model(s.Model), Requests: s.Requests, Errors: s.Errors, Dropped: s.Dropped, Seconds: s.Duration.Seconds(),
		Rate: s.Rate, AskedRate: s.TargetRate, Connections: s.Connections, BytesIn: s.BytesIn, BytesOut: s.BytesOut,
		ErrorKinds: s.ErrorKinds, MaxInFlight: s.MaxInFlight,
		LatencyMs: lab.Percentiles{Min: ms(s.Min), Mean: ms(s.Mean), P50: ms(s.P50), P90: ms(s.P90), P95: ms(s.P95),
			P99: ms(s.P99), P999: ms(s.P999), Max: ms(s.Max)},
		ServiceMs: lab.Percentiles{Min: ms(s.ServiceMin), Mean: ms(s.ServiceMean), P50: ms(s.ServiceP50), P90: ms(s.ServiceP90),
			P95: ms(s.ServiceP95), P99: ms(s.ServiceP99), P999: ms(s.ServiceP999), Max: ms(s.ServiceMax)}}
	if s.FirstByteP50 > 0 {
		st.FirstByteMs = &lab.Percentiles{P50: ms(s.FirstByteP50), P90: ms(s.FirstByteP90), P99: ms(s.FirstByteP99), Max: ms(s.FirstByteMax)}
	}
	if s.Timed > 0 {
		st.ServerTiming = &lab.ServerTiming{Requests: s.Timed, Total: phaseStat(s.ServerTotal)}
		for _, p := range s.Phases {
			st.ServerTiming.Phases = append(st.ServerTiming.Phases, phaseStat(p))
		}
	}
	for _, e := range s.Endpoints {
		st.Endpoints = append(st.Endpoints, lab.EndpointStats{Name: e.Name, Method: e.Method, Path: e.Path, Status: e.Status,
			Line: e.Line, Requests: e.Requests, Errors: e.Errors, MinMs: ms(e.Min), P50Ms: ms(e.P50), P90Ms: ms(e.P90),
			P95Ms: ms(e.P95), P99Ms: ms(e.P99), MaxMs: ms(e.Max)})
	}
	if len(s.Status) > 0 {
		st.Status = map[string]int64{}
		for code, n := range s.Status {
			st.Status[strconv.Itoa(code)] = n
		}
	}
	return st
}

func series(in []loadgen.Second) []lab.Second {
	out := make([]lab.Second, len(in))
	for i, s := range in {
		out[i] = lab.Second{T: s.At.Seconds(), Requests: s.Requests, Errors: s.Errors, P50Ms: ms(s.P50), P99Ms: ms(s.P99),
			MaxMs: ms(s.Max), Dropped: s.Dropped}
	}
	return out
}

// searchOutcome reports the best passing step (a sustained search's
// passing hold at its limit) as the trial's figures and keeps the whole
// curve. Sent counts every step's answers plus an estimate of its warm-up
// (its rate x warm-up), for per-request CPU.
func searchOutcome(sr *loadgen.SearchResult, warmup time.Duration) lab.LoadOutcome {
	var out lab.LoadOutcome
	for _, p := range sr.Curve {
		s := p.Summary
		rate := p.Rate
		if p.Kind == loadgen.PointClosed {
			rate = s.Rate
		}
		out.Sent += s.Requests + int64(rate*warmup.Seconds())
		cp := lab.CurvePoint{AskedRate: p.Rate, Rate: s.Rate, P99Ms: ms(s.P99), OK: p.Pass, Connections: p.Connections, Share: p.Share,
			P50Ms: ms(s.P50), P95Ms: ms(s.P95), Elapsed: s.Elapsed.Seconds(), Why: p.Why}
		if p.Kind != loadgen.PointStep {
			cp.Kind = string(p.Kind)
		}
		if s.Requests > 0 {
			cp.ErrorRate = float64(s.Errors) / float64(s.Requests)
		}
		if n := s.Requests + s.Dropped; n > 0 {
			cp.Dropped = float64(s.Dropped) / float64(n)
		}
		out.Curve = append(out.Curve, cp)
		best := p.Pass && p.Rate == sr.Best && p.Kind != loadgen.PointAt
		if best && (sr.Held == nil || p.Kind == loadgen.PointHold) {
			out.Stats = stats(s)
		}
	}
	out.Stats.Model = lab.ModelSearch
	return out
}

func phaseStat(p loadgen.Phase) lab.PhaseStat {
	return lab.PhaseStat{Name: p.Name, MinMs: ms(p.Min), MeanMs: ms(p.Mean), P50Ms: ms(p.P50), P99Ms: ms(p.P99)}
}

var _ lab.Loader = (*Loader)(nil)

// DescribeScenario implements lab.ScenarioDescriber: the scenario's
// requests as Load sends them (method, path with its template fields as
// written, the body's size in a run's first request), the first
// lab.MaxDescribedRequests of them.
func (l *Loader) DescribeScenario(spec lab.LoadSpec) (lab.ScenarioInfo, error) {
	sc, err := scenario(spec)
	if err != nil {
		return lab.ScenarioInfo{}, err
	}
	info := lab.ScenarioInfo{Name: sc.Name}
	if n := len(sc.Requests); n > lab.MaxDescribedRequests {
		info.Total = n
	}
	for i, r := range sc.Requests {
		if i == lab.MaxDescribedRequests {
			break
		}
		info.Requests = append(info.Requests, askedRequest(r))
	}
	return info, nil
}

// askedRequest describes r: a body's size is that of a run's first
// request (loadgen.Fill with the lowest {rand} value and the first {seq}
// numbers), or of the template as written when a {jwt} field, which needs
// the run's secret, leaves it unfilled.
func askedRequest(r loadgen.Request) lab.AskedRequest {
	a := lab.AskedRequest{Method: r.Method, Path: r.Path, BodyBytes: len(r.Body), IDs: requestIDs(r.Path)}
	if a.Method == "" {
		a.Method = "GET"
	}
	if len(r.Body) == 0 {
		return a
	}
	parts, err := loadgen.Parts(string(r.Body))
	if err != nil {
		return a
	}
	for _, p := range parts {
		a.BodyVaries = a.BodyVaries || p.Kind != 0
	}
	lo, _, _ := loadgen.RandRange(parts)
	if first, err := loadgen.Fill(parts, lo, 0); err == nil {
		a.BodyBytes = len(first)
	}
	return a
}

var _ lab.ScenarioDescriber = (*Loader)(nil)
