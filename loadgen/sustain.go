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
	// The first hold offers sustainStart of the closed-loop saturation
	// throughput (or of an earlier search's limit); a hold that passes is
	// followed by one sustainUp higher (at most sustainMaxUp times), one
	// that fails before any passed by one sustainDown lower (at most
	// sustainMaxDown times).
	sustainStart   = 0.97
	sustainUp      = 1.04
	sustainDown    = 0.95
	sustainMaxUp   = 2
	sustainMaxDown = 4
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
// 3 % twice; the highest throughput is the saturation point. Then it holds
// the open model at 97 % of it, and climbs 4 % while holds pass (twice at
// most) or steps down 5 % until one passes (four times at most). With
// estimate > 0 (an earlier search's limit of the same target) the sweep
// is skipped and the holds start at 97 % of estimate. Last, it measures
// the latency at SustainShares of the limit, cfg.Duration each. Every step
// is a Run with cfg's warm-up.
func Sustain(ctx context.Context, cfg Config, lim Limit, estimate float64, progress func(Progress)) (*SearchResult, error) {
	if lim.Hold <= 0 {
		return nil, errors.New("loadgen: sustain needs Limit.Hold")
	}
	if cfg.Open == nil {
		cfg.Open = &Open{}
	}
	res := &SearchResult{Limit: lim}
	x := estimate
	if x <= 0 {
		best, err := closedSweep(ctx, cfg, lim, res, progress)
		if err != nil || best == nil {
			return res, err
		}
		res.Closed, x = best, best.Summary.Rate
	}
	hold := cfg
	hold.Duration = lim.Hold
	rate := clampRate(sustainStart*x, lim)
	for up, down := 0, 0; ; {
		pt, err := holdStep(ctx, hold, rate, lim, progress)
		if err != nil {
			return res, fmt.Errorf("loadgen: sustain %w", err)
		}
		res.Curve = append(res.Curve, pt)
		if err := ctx.Err(); err != nil {
			return res, err
		}
		next := 0.0
		switch {
		case pt.Pass:
			res.Best, res.Held = rate, &res.Curve[len(res.Curve)-1]
			if up < sustainMaxUp && (lim.MaxRate == 0 || rate < lim.MaxRate) {
				up++
				next = clampRate(rate*sustainUp, lim)
			}
		case res.Best == 0 && down < sustainMaxDown:
			down++
			next = rate * sustainDown
		}
		if next <= 0 || next == rate || next < searchMinRate {
			break
		}
		rate = next
	}
	if res.Held != nil { // a pointer into Curve, which grows below
		held := *res.Held
		res.Held = &held
	}
	if res.Best <= 0 {
		return res, nil
	}
	for _, share := range SustainShares {
		pt, err := holdStep(ctx, cfg, share*res.Best, lim, progress)
		if err != nil {
			return res, fmt.Errorf("loadgen: sustain %w", err)
		}
		pt.Kind, pt.Share = PointAt, share
		res.Curve = append(res.Curve, pt)
		if err := ctx.Err(); err != nil {
			return res, err
		}
	}
	return res, nil
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

// SustainSteps is the most steps Sustain takes (the closed-loop sweep,
// the holds, the latency steps), and the most load time they take with
// cfg's warm-up and duration and lim's hold: the bound of one trial.
func SustainSteps(step, warmup time.Duration, lim Limit) (steps int, load time.Duration) {
	sweep := 0
	for c := 1; c <= sustainMaxConns; c *= 2 {
		sweep++
	}
	holds := 1 + max(sustainMaxUp, sustainMaxDown)
	shares := len(SustainShares)
	steps = sweep + holds + shares
	load = time.Duration(sweep+shares)*(warmup+step) + time.Duration(holds)*(warmup+lim.Hold)
	return steps, load
}

// SustainTypical is the load time Sustain usually takes: a sweep to 16
// connections (first search only), two holds and the latency steps.
func SustainTypical(step, warmup time.Duration, lim Limit, first bool) time.Duration {
	t := 2*(warmup+lim.Hold) + time.Duration(len(SustainShares))*(warmup+step)
	if first {
		t += 5 * (warmup + step)
	}
	return t
}
