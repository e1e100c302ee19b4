package loadgen

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Sustain's rule, in numbers (every search is bounded in steps).
const (
	// sustainMaxConns is the closed-loop sweep's top concurrency: 1, 2,
	// 4, ... up to it, until two doublings in a row gain less than
	// sustainFlat.
	sustainMaxConns = 64
	sustainFlat     = 1.03
	// The bracket's short steps start at sustainStart of the closed-loop
	// saturation throughput (or at an earlier search's limit) and move by
	// sustainBracket: up while they pass, until one fails (sustainMaxUp
	// times at most: 1.8 times the start), down while they fail
	// (sustainMaxDown times at most). A limit always has a failed step
	// above it: a search that stopped climbing while it still passed
	// would report where it started, not what the server sustains, and
	// repeated searches would ratchet up from each other's figures.
	sustainStart   = 0.95
	sustainBracket = 1.05
	sustainMaxUp   = 12
	sustainMaxDown = 8
	// The holds confirm the bracket's highest pass, then try halfway to
	// its lowest failure; a hold that fails at the bracket's pass is
	// followed by one sustainDown lower, or at the rate the failed hold
	// achieved when that is lower still (what the server served while it
	// fell behind), sustainMaxHoldDown times at most.
	sustainDown        = 0.97
	sustainMaxHoldDown = 3
)

// SustainShares are the shares of the sustained limit Sustain measures the
// latency at, once it is found: the latency a reader can expect well
// below the limit and close to it.
var SustainShares = []float64{0.5, 0.8}

// Sustain finds the highest open-model rate the target sustains within
// lim (lim.Hold > 0): a rate it holds for lim.Hold with no more failed
// requests than lim allows, the latency inside lim's SLO (P95, P99) and at
// least MinAchieved of the offered rate answered over the real time to
// the last answer (Summary.Elapsed), so that answers arriving after the
// hold are never credited to it.
//
// It first sweeps the closed model (as wrk and k6's VUs measure): 1, 2,
// 4, ... connections for cfg.Duration each, until doubling gains less than
// 3 % twice; the highest throughput is the saturation point. Then short
// open-model steps (cfg.Duration, the same rule) bracket the limit from
// 95 % of it, 5 % a step, until a pass lies next to a failure. Then holds
// of lim.Hold: at the bracket's highest pass (3 % lower while it fails, or
// at the rate the failed hold achieved), then halfway to the failure; the
// highest hold that passed is the limit. Last, the latency at
// SustainShares of it, cfg.Duration each. With estimate > 0 (an earlier
// search's limit of the same target) the sweep and the latency steps are
// skipped and the bracket starts at the estimate; when no step of that
// bracket passes, the estimate is stale and the search starts over from
// the sweep. Every step is a Run with cfg's warm-up.
func Sustain(ctx context.Context, cfg Config, lim Limit, estimate float64, progress func(Progress)) (*SearchResult, error) {
	if lim.Hold <= 0 {
		return nil, errors.New("loadgen: sustain needs Limit.Hold")
	}
	if cfg.Open == nil {
		cfg.Open = &Open{}
	}
	res := &SearchResult{Limit: lim}
	step := func(c Config, rate float64, kind PointKind) (SearchPoint, error) {
		pt, err := holdStep(ctx, c, rate, lim, progress)
		if err != nil {
			return pt, fmt.Errorf("loadgen: sustain %w", err)
		}
		pt.Kind = kind
		res.Curve = append(res.Curve, pt)
		return pt, ctx.Err()
	}
	// fromSweep is where a search without an estimate starts: sustainStart
	// of the closed-loop sweep's best (0 when no step answered).
	fromSweep := func() (float64, error) {
		best, err := closedSweep(ctx, cfg, lim, res, progress)
		if err != nil || best == nil {
			return 0, err
		}
		res.Closed = best
		return sustainStart * best.Summary.Rate, nil
	}
	start := estimate
	if start <= 0 {
		var err error
		if start, err = fromSweep(); err != nil || start <= 0 {
			return res, err
		}
	}
	lo, hi, err := bracket(cfg, clampRate(start, lim), lim, step)
	if err == nil && lo <= 0 && estimate > 0 {
		// The estimate is stale (the server or the machine changed since
		// the search that found it): measure afresh from the sweep.
		estimate = 0
		if start, err = fromSweep(); err != nil || start <= 0 {
			return res, err
		}
		lo, hi, err = bracket(cfg, clampRate(start, lim), lim, step)
	}
	if err != nil || lo <= 0 {
		return res, err
	}
	hold := cfg
	hold.Duration = lim.Hold
	rate := lo
	for down := 0; ; down++ {
		pt, err := step(hold, rate, PointHold)
		if err != nil {
			return res, err
		}
		if pt.Pass {
			res.Best, res.Held = rate, &pt
			break
		}
		next := rate * sustainDown
		if a := pt.Summary.Rate; a > 0 && a < next {
			next = a
		}
		if down == sustainMaxHoldDown || next < searchMinRate {
			return res, nil
		}
		rate = next
	}
	if hi > 0 && rate == lo {
		// The bracket's pass held: try halfway to its failure.
		mid := clampRate((lo+hi)/2, lim)
		pt, err := step(hold, mid, PointHold)
		if err != nil {
			return res, err
		}
		if pt.Pass {
			res.Best, res.Held = mid, &pt
		}
	}
	if estimate > 0 {
		return res, nil
	}
	for _, share := range SustainShares {
		if _, err := step(cfg, share*res.Best, PointAt); err != nil {
			return res, err
		}
		res.Curve[len(res.Curve)-1].Share = share
	}
	return res, nil
}

// bracket moves short steps from start by sustainBracket until a pass
// and a failure lie next to each other: lo the highest pass, hi the
// lowest failure above it (0 when the top step passed at lim.MaxRate or
// after sustainMaxUp), lo 0 when nothing passed.
func bracket(cfg Config, start float64, lim Limit, step func(Config, float64, PointKind) (SearchPoint, error)) (lo, hi float64, err error) {
	rate := start
	for up, down := 0, 0; ; {
		pt, err := step(cfg, rate, PointStep)
		if err != nil {
			return lo, hi, err
		}
		if pt.Pass {
			lo = rate
			if hi > 0 || up == sustainMaxUp || (lim.MaxRate > 0 && rate >= lim.MaxRate) {
				return lo, hi, nil
			}
			up++
			rate = clampRate(rate*sustainBracket, lim)
			continue
		}
		hi = rate
		if lo > 0 || down == sustainMaxDown || rate/sustainBracket < searchMinRate {
			return lo, hi, nil
		}
		down++
		rate /= sustainBracket
	}
}

// closedSweep runs the closed model at 1, 2, 4, ... connections and
// returns its best step (the highest throughput within lim's error
// rate); nil when no step answered.
func closedSweep(ctx context.Context, cfg Config, lim Limit, res *SearchResult, progress func(Progress)) (*SearchPoint, error) {
	var best *SearchPoint
	flat := 0
	for c := 1; c <= sustainMaxConns; c *= 2 {
		step := cfg
		step.Open, step.Closed = nil, &Closed{Connections: c}
		r, err := Run(ctx, step, progress)
		if err != nil {
			return best, fmt.Errorf("loadgen: sustain: closed step at %d connections: %w", c, err)
		}
		s := r.Summary
		why := ""
		switch {
		case s.Requests == 0:
			why = "no requests completed"
		case s.ErrorRate() > lim.MaxErrorRate:
			why = fmt.Sprintf("errors %.2f%% > %.2f%%", 100*s.ErrorRate(), 100*lim.MaxErrorRate)
		}
		res.Curve = append(res.Curve, SearchPoint{Kind: PointClosed, Connections: c, Summary: s, Pass: why == "", Why: why})
		if err := ctx.Err(); err != nil {
			return best, err
		}
		pt := res.Curve[len(res.Curve)-1]
		if !pt.Pass {
			if best != nil {
				break // more connections fail: the sweep is past the server's limit
			}
			continue
		}
		switch {
		case best == nil || s.Rate > best.Summary.Rate*sustainFlat:
			best, flat = &pt, 0
		default:
			if s.Rate > best.Summary.Rate {
				best = &pt
			}
			flat++
		}
		if flat >= 2 {
			break
		}
	}
	return best, nil
}

// holdStep runs cfg's open model at rate and checks it against lim. A
// request due while every connection is busy waits for one as long as the
// latency SLO allows (its latency counts from when it was due), so that a
// hold is judged by what it achieved and how long answers took, not by a
// drop at the first busy moment.
func holdStep(ctx context.Context, cfg Config, rate float64, lim Limit, progress func(Progress)) (SearchPoint, error) {
	o := *cfg.Open
	o.Rate = rate
	if o.MaxLate == 0 {
		o.MaxLate = max(lim.P95, lim.P99, time.Second)
	}
	cfg.Open, cfg.Closed = &o, nil
	r, err := Run(ctx, cfg, progress)
	if err != nil {
		return SearchPoint{}, fmt.Errorf("hold at %.0f req/s: %w", rate, err)
	}
	why := lim.Check(r.Summary)
	return SearchPoint{Kind: PointHold, Rate: rate, Summary: r.Summary, Pass: why == "", Why: why}, nil
}

func clampRate(r float64, lim Limit) float64 {
	if lim.MaxRate > 0 {
		r = min(r, lim.MaxRate)
	}
	return max(r, searchMinRate)
}

// SustainSteps is the most steps Sustain takes (a stale estimate's
// bracket, the closed-loop sweep, the bracket, the holds, the latency
// steps), and the most load time they
// take with cfg's warm-up and duration and lim's hold: the bound of one
// trial.
func SustainSteps(step, warmup time.Duration, lim Limit) (steps int, load time.Duration) {
	sweep := 0
	for c := 1; c <= sustainMaxConns; c *= 2 {
		sweep++
	}
	bracket := 1 + max(sustainMaxUp, sustainMaxDown)
	// A stale estimate's failed bracket, then a search from the sweep.
	short := bracket + sweep + bracket + len(SustainShares)
	holds := 1 + sustainMaxHoldDown + 1
	return short + holds, time.Duration(short)*(warmup+step) + time.Duration(holds)*(warmup+lim.Hold)
}

// SustainTypical is the load time Sustain usually takes: a sweep to 16
// connections and the latency steps (first search only), three bracket
// steps and two holds.
func SustainTypical(step, warmup time.Duration, lim Limit, first bool) time.Duration {
	t := 3*(warmup+step) + 2*(warmup+lim.Hold)
	if first {
		t += time.Duration(5+len(SustainShares)) * (warmup + step)
	}
	return t
}
