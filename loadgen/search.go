package loadgen

import (
	"context"
	"fmt"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
)

// Limit is what a rate must meet in Search. P99 == 0 means no latency
// limit; the error and dropped rates are always checked (0: none allowed).
// A step must also reach 95% of the asked rate. MaxRate, when above 0, is
// the highest rate Search asks for: a target that meets the limit there is
// not pushed further.
type Limit struct {
	P99                          time.Duration
	MaxErrorRate, MaxDroppedRate float64
	MaxRate                      float64
}

// Check returns "" when s meets the limit, else why not.
func (l Limit) Check(s Summary) string {
	switch {
	case s.Requests == 0:
		return "no requests completed"
	case l.P99 > 0 && s.P99 > l.P99:
		return fmt.Sprintf("p99 %s > %s", format.Duration(s.P99), format.Duration(l.P99))
	case s.ErrorRate() > l.MaxErrorRate:
		return fmt.Sprintf("errors %.2f%% > %.2f%%", 100*s.ErrorRate(), 100*l.MaxErrorRate)
	case s.DroppedRate() > l.MaxDroppedRate:
		return fmt.Sprintf("dropped %.2f%% > %.2f%%", 100*s.DroppedRate(), 100*l.MaxDroppedRate)
	case s.TargetRate > 0 && s.Rate < 0.95*s.TargetRate:
		return fmt.Sprintf("rate %.0f < 95%% of %.0f", s.Rate, s.TargetRate)
	}
	return ""
}

// SearchPoint is one measured step.
type SearchPoint struct {
	Rate    float64
	Summary Summary
	Pass    bool
	Why     string // why it failed the limit
}

// SearchResult is the highest rate that met the limit (0 if none did) and
// every step measured, in the order measured.
type SearchResult struct {
	Best  float64
	Limit Limit
	Curve []SearchPoint
}

// Search variables for bounds (every search is bounded in steps).
const (
	searchMaxRamp   = 12
	searchMaxBisect = 8
	searchPrecision = 0.05 // stop bisecting when (hi-lo)/hi is below this
)

// Search finds the highest open-model rate meeting lim: starting at
// cfg.Open.Rate it doubles the rate until a step fails (halves it until one
// passes if the first fails), then bisects between the last pass and the
// first failure to 5%. It never asks for more than lim.MaxRate (when set).
// Each step is a full Run of cfg (warm-up included).
// With cfg.Open.MaxInFlight == 0 each step uses DefaultMaxInFlight; with
// cfg.Open.MaxLate == 0 a step drops a request due while every connection
// is busy (it does not wait).
func Search(ctx context.Context, cfg Config, lim Limit, progress func(Progress)) (*SearchResult, error) {
	if cfg.Open == nil {
		return nil, fmt.Errorf("loadgen: search needs the open model (Config.Open with the starting rate)")
	}
	res := &SearchResult{Limit: lim}
	step := func(rate float64) (bool, error) {
		pt, err := runStep(ctx, cfg, rate, lim, progress)
		if err != nil {
			return false, fmt.Errorf("loadgen: search %w", err)
		}
		res.Curve = append(res.Curve, pt)
		return pt.Pass, ctx.Err()
	}
	lo, hi := 0.0, 0.0
	rate := cfg.Open.Rate
	if lim.MaxRate > 0 {
		rate = min(rate, lim.MaxRate)
	}
	ok, err := step(rate)
	if err != nil {
		return res, err
	}
	for i := 0; i < searchMaxRamp; i++ {
		if ok {
			lo = rate
			if hi > 0 || (lim.MaxRate > 0 && rate >= lim.MaxRate) {
				break
			}
			rate *= 2
			if lim.MaxRate > 0 {
				rate = min(rate, lim.MaxRate)
			}
		} else {
			hi = rate
			if lo > 0 {
				break
			}
			rate /= 2
		}
		if rate < 1 || rate > 1e7 {
			break
		}
		if ok, err = step(rate); err != nil {
			return res, err
		}
	}
	if ok && hi == 0 {
		lo = rate
	}
	for i := 0; i < searchMaxBisect && lo > 0 && hi > 0 && (hi-lo)/hi > searchPrecision; i++ {
		mid := (lo + hi) / 2
		ok, err := step(mid)
		if err != nil {
			return res, err
		}
		if ok {
			lo = mid
		} else {
			hi = mid
		}
	}
	res.Best = lo
	return res, nil
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
	return SearchPoint{Rate: rate, Summary: r.Summary, Pass: why == "", Why: why}, nil
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
