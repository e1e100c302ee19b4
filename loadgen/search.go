package loadgen

import (
	"context"
	"fmt"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
)

// Limit is what a rate must meet in Search and Sustain. P99 == 0 and
// P95 == 0 mean no latency limit; the error and dropped rates are always
// checked (0: none allowed). A step must also reach 95% of the asked rate
// (Search), or MinAchieved of it over the real time to its last answer
// (Sustain, Hold > 0). MaxRate, when above 0, is the highest rate asked
// for: a target that meets the limit there is not pushed further.
type Limit struct {
	P99, P95                     time.Duration
	MaxErrorRate, MaxDroppedRate float64
	MaxRate                      float64
	// Hold makes the limit a sustained one (Sustain): a rate counts only
	// when the target holds it this long.
	Hold time.Duration
	// MinAchieved is the share of the offered rate a hold must achieve
	// (DefaultMinAchieved when 0).
	MinAchieved float64
}

// DefaultMinAchieved is Limit.MinAchieved when none is given: a hold that
// answers fewer than 99 % of the requests offered, over the real time its
// answers took, did not sustain the rate.
const DefaultMinAchieved = 0.99

func (l Limit) minAchieved() float64 {
	if l.MinAchieved > 0 {
		return l.MinAchieved
	}
	return DefaultMinAchieved
}

// achievedFloor is the least rate s must achieve: minAchieved of the
// offered rate, less one request over the window. The window holds a
// whole number of requests (16 of a 55 req/s step of 300 ms, 53.3 req/s),
// and without that request's worth a short step at a low rate (GETAllEmbed
// at 20 req/s for 2 s: one request is 2.5 %) would fail on rounding.
func (l Limit) achievedFloor(s Summary) float64 {
	floor := l.minAchieved() * s.TargetRate
	if d := s.Duration.Seconds(); d > 0 {
		floor -= 1 / d
	}
	return floor
}

// Check returns "" when s meets the limit, else why not.
func (l Limit) Check(s Summary) string {
	switch {
	case s.Requests == 0:
		return "no requests completed"
	case l.P99 > 0 && s.P99 > l.P99:
		return fmt.Sprintf("p99 %s > %s", format.Duration(s.P99), format.Duration(l.P99))
	case l.P95 > 0 && s.P95 > l.P95:
		return fmt.Sprintf("p95 %s > %s", format.Duration(s.P95), format.Duration(l.P95))
	case s.ErrorRate() > l.MaxErrorRate:
		return fmt.Sprintf("errors %.2f%% > %.2f%%", 100*s.ErrorRate(), 100*l.MaxErrorRate)
	case s.DroppedRate() > l.MaxDroppedRate:
		return fmt.Sprintf("dropped %.2f%% > %.2f%%", 100*s.DroppedRate(), 100*l.MaxDroppedRate)
	case l.Hold > 0 && s.TargetRate > 0 && s.Rate < l.achievedFloor(s):
		return fmt.Sprintf("achieved %s req/s over the %s to the last answers, < %s%% of %s", format.Num(s.Rate, 3),
			format.Duration(s.Elapsed), format.Num(100*l.minAchieved(), 3), format.Num(s.TargetRate, 3))
	case l.Hold == 0 && s.TargetRate > 0 && s.Rate < 0.95*s.TargetRate:
		return fmt.Sprintf("rate %.0f < 95%% of %.0f", s.Rate, s.TargetRate)
	}
	return ""
}

// SearchPoint is one measured step.
type SearchPoint struct {
	Kind    PointKind
	Rate    float64 // the rate asked (open model), 0 for a closed step
	Summary Summary
	Pass    bool
	Why     string // why it failed the limit
	// Connections is a closed step's concurrency; Share an "at" step's
	// rate as a share of the limit.
	Connections int
	Share       float64
}

// PointKind says what a step of a search measured.
type PointKind string

// The kinds of steps.
const (
	PointStep   PointKind = "step"   // a step of Search's ramp and bisection
	PointClosed PointKind = "closed" // Sustain's closed-loop sweep: the saturation throughput at a concurrency
	PointHold   PointKind = "hold"   // Sustain's confirmation hold at an offered rate
	PointAt     PointKind = "at"     // the latency at a share of the sustained limit
)

// SearchResult is the highest rate that met the limit (0 if none did) and
// every step measured, in the order measured. Sustain also gives the
// closed-loop sweep's best step (Closed) and the hold that passed at Best
// (Held).
type SearchResult struct {
	Best   float64
	Limit  Limit
	Curve  []SearchPoint
	Closed *SearchPoint
	Held   *SearchPoint
}

// Search variables for bounds (every search is bounded in steps).
const (
	searchMaxRamp   = 12
	searchMaxBisect = 8
	searchPrecision = 0.05 // stop bisecting when (hi-lo)/hi is below this
	searchMinRate   = 1    // the ramp stops below 1 req/s ...
	searchMaxRate   = 1e7  // ... and above 10 million
)

// Search finds the highest open-model rate meeting lim: starting at
// cfg.Open.Rate it doubles the rate until a step fails (halves it until one
// passes if the first fails), then bisects between the last pass and the
// first failure to 5%. It never asks for more than lim.MaxRate (when set).
// Each step is a full Run of cfg (warm-up included); searchPlan is the
// rule, MaxSearchSteps the most steps it can take.
// With cfg.Open.MaxInFlight == 0 each step uses DefaultMaxInFlight; with
// cfg.Open.MaxLate == 0 a step drops a request due while every connection
// is busy (it does not wait).
func Search(ctx context.Context, cfg Config, lim Limit, progress func(Progress)) (*SearchResult, error) {
	if cfg.Open == nil {
		return nil, fmt.Errorf("loadgen: search needs the open model (Config.Open with the starting rate)")
	}
	return search(ctx, cfg.Open.Rate, lim, func(rate float64) (SearchPoint, error) {
		return runStep(ctx, cfg, rate, lim, progress)
	})
}

// search runs the plan from start, measuring each rate with step.
func search(ctx context.Context, start float64, lim Limit, step func(rate float64) (SearchPoint, error)) (*SearchResult, error) {
	res := &SearchResult{Limit: lim}
	p := newSearchPlan(start, lim)
	for rate, more := p.first(), true; more; {
		pt, err := step(rate)
		if err != nil {
			return res, fmt.Errorf("loadgen: search %w", err)
		}
		res.Curve = append(res.Curve, pt)
		if err := ctx.Err(); err != nil {
			return res, err
		}
		rate, more = p.next(pt.Pass)
	}
	res.Best = p.lo
	return res, nil
}

// searchPlan is Search's rule for the next step, apart from measuring: a
// ramp (doubling while steps pass, halving while they fail, at most
// searchMaxRamp times after the first step, within [1, 1e7] req/s and
// MaxRate), then a bisection between the last pass and the first failure
// above it (at most searchMaxBisect steps, until they are within 5 %).
// It is a value: MaxSearchSteps walks every outcome from a copy.
type searchPlan struct {
	maxRate        float64
	rate           float64 // being measured
	lo, hi         float64 // highest pass, lowest failure above it (0: none yet)
	ramps, bisects int
	bisecting      bool
}

func newSearchPlan(start float64, lim Limit) searchPlan {
	p := searchPlan{maxRate: lim.MaxRate, rate: start}
	if p.maxRate > 0 {
		p.rate = min(p.rate, p.maxRate)
	}
	return p
}

// first is the first rate to measure.
func (p *searchPlan) first() float64 { return p.rate }

// next records whether the step at the rate being measured passed and
// returns the next rate, or false when the search is over (its result is
// then p.lo, the highest rate that passed).
func (p *searchPlan) next(pass bool) (float64, bool) {
	if pass {
		p.lo = p.rate
	} else {
		p.hi = p.rate
	}
	if !p.bisecting && p.ramps < searchMaxRamp {
		p.ramps++
		var r float64
		switch {
		case pass && (p.hi > 0 || p.maxRate > 0 && p.rate >= p.maxRate), !pass && p.lo > 0:
			p.bisecting = true // bracketed, or met at max_rate
		case pass:
			r = p.rate * 2
			if p.maxRate > 0 {
				r = min(r, p.maxRate)
			}
		default:
			r = p.rate / 2
		}
		if !p.bisecting && r >= searchMinRate && r <= searchMaxRate {
			p.rate = r
			return r, true
		}
	}
	p.bisecting = true
	if p.bisects < searchMaxBisect && p.lo > 0 && p.hi > 0 && (p.hi-p.lo)/p.hi > searchPrecision {
		p.bisects++
		p.rate = (p.lo + p.hi) / 2
		return p.rate, true
	}
	return 0, false
}

// MaxSearchSteps is the most steps Search can take from start within lim,
// whatever each step's outcome: the longest path through searchPlan (at
// most 1 + searchMaxRamp + searchMaxBisect). Each step is a Run with its
// warm-up, so a search lasts at most this many times warm-up + duration.
func MaxSearchSteps(start float64, lim Limit) int {
	var longest func(p searchPlan) int
	longest = func(p searchPlan) int {
		most := 0
		for _, pass := range []bool{true, false} {
			q := p
			if _, more := q.next(pass); more {
				most = max(most, longest(q))
			}
		}
		return 1 + most
	}
	return longest(newSearchPlan(start, lim))
}

// runStep runs cfg's open model at rate and checks the result against lim.
func runStep(ctx context.Context, cfg Config, rate float64, lim Limit, progress func(Progress)) (SearchPoint, error) {
	o := *cfg.Open
	o.Rate = rate
	if o.MaxLate == 0 {
		// A step judges its drops: a request that finds every connection
		// busy is dropped at once, not kept waiting until the backlog is a
		// second old (that would hide overload from a limit without p99).
		o.MaxLate = -1
	}
	cfg.Open = &o
	r, err := Run(ctx, cfg, progress)
	if err != nil {
		return SearchPoint{}, fmt.Errorf("step at %.0f req/s: %w", rate, err)
	}
	why := lim.Check(r.Summary)
	return SearchPoint{Kind: PointStep, Rate: rate, Summary: r.Summary, Pass: why == "", Why: why}, nil
}

// Ramp runs cfg's open model at each rate in turn and returns the curve;
// it stops early at the first step failing lim when stopAtFail.
func Ramp(ctx context.Context, cfg Config, rates []float64, lim Limit, stopAtFail bool, progress func(Progress)) (*SearchResult, error) {
	if cfg.Open == nil {
		return nil, fmt.Errorf("loadgen: ramp needs the open model")
	}
	res := &SearchResult{Limit: lim}
	for _, rate := range rates {
		pt, err := runStep(ctx, cfg, rate, lim, progress)
		if err != nil {
			return res, fmt.Errorf("loadgen: ramp %w", err)
		}
		res.Curve = append(res.Curve, pt)
		if pt.Pass && rate > res.Best {
			res.Best = rate
		}
		if ctx.Err() != nil || (!pt.Pass && stopAtFail) {
			break
		}
	}
	return res, ctx.Err()
}

// SearchStepsTo is how many steps a search from start within lim takes
// on a target whose capacity is capacity: every rate up to it passes,
// every rate above it fails (the estimate of a run's typical length).
func SearchStepsTo(start float64, lim Limit, capacity float64) int {
	p := newSearchPlan(start, lim)
	rate, steps := p.first(), 1
	for {
		r, more := p.next(rate <= capacity)
		if !more {
			return steps
		}
		rate, steps = r, steps+1
	}
}
