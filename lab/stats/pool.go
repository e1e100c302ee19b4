package stats

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
)

// PoolKey is the swept key whose sweep gets a pool sizing (PoolSizing):
// slow and fast requests side by side at several db-pool sizes.
const PoolKey = "postgrest.db-pool"

// The fast requests' p99 bound of a pool sizing: at most PoolBoundFactor
// times their best p99 over the sweep, and never under the best plus
// PoolBoundSlackMs (a bound of a fraction of a millisecond would be noise).
const (
	PoolBoundFactor  = 2.0
	PoolBoundSlackMs = 5.0
)

// PoolSizing answers "which db-pool does this load need": per pool size,
// the 504s (PGRST003), the acquisition timeouts and the most requests
// waiting, and the fast requests' p99; the recommendation is the smallest
// size without a timeout or a 504 whose fast requests' p99 is within
// Bound.
type PoolSizing struct {
	// Fast are the endpoints counted as fast requests: every request line
	// but the slowest (by its median p50 at the largest pool).
	Fast   []string
	Slow   string // the slowest line ("" with a single line)
	Points []PoolPoint
	// BestP99 is the lowest fast p99 over the sweep, Bound the bound it
	// gives (ms).
	BestP99, Bound float64
	Recommended    string // the variant ("" when no size qualifies)
	Sentence       string
}

// PoolPoint is one pool size's trials together.
type PoolPoint struct {
	Variant, Size string
	Trials        int
	Gateway       int64 // answers with status 504 (PGRST003)
	Timeouts      int64 // pgrst_db_pool_timeouts_total's increase, summed
	MaxWaiting    int   // most requests seen waiting for a connection
	HasPool       bool  // the server exported pool metrics
	// FastP99 is the median over trials of the worst fast line's p99 (ms;
	// 0 when no fast request succeeded).
	FastP99 float64
}

// Clean reports whether the size had no 504 and no acquisition timeout.
func (p PoolPoint) Clean() bool { return p.Gateway == 0 && p.Timeouts == 0 }

// PoolSizingOf computes the sizing of a db-pool sweep's scenario from its
// points (cheapest, i.e. smallest, first); nil unless the sweep's key is
// PoolKey and the trials measured their requests apart (a targets file).
func PoolSizingOf(run *lab.Run, scenario string, points []SweepPointResult) *PoolSizing {
	s := run.Experiment.Sweep
	if s == nil || s.Key != PoolKey || s.Cross != nil || len(points) == 0 {
		return nil
	}
	points = slices.Clone(points) // smallest first, whatever the cost order
	size := func(p SweepPointResult) float64 { v, _ := strconv.ParseFloat(p.Values[0], 64); return v }
	slices.SortStableFunc(points, func(a, b SweepPointResult) int { return cmp.Compare(size(a), size(b)) })
	byVariant := map[string][]lab.Trial{}
	for _, p := range points {
		byVariant[p.Variant] = TrialsOf(run, p.Variant, scenario)
	}
	largest := byVariant[points[len(points)-1].Variant]
	lines := endpointLines(largest)
	if len(lines) == 0 {
		return nil
	}
	ps := &PoolSizing{}
	fast := map[string]bool{}
	if len(lines) > 1 {
		ps.Slow = lines[len(lines)-1].key
		lines = lines[:len(lines)-1]
	}
	for _, l := range lines {
		fast[l.key] = true
		ps.Fast = append(ps.Fast, l.key)
	}
	for _, p := range points {
		pp := PoolPoint{Variant: p.Variant, Size: p.Values[0]}
		var p99s []float64
		for _, t := range byVariant[p.Variant] {
			pp.Trials++
			pp.Gateway += t.Load.Status["504"]
			if pl := t.DB.Pool; pl != nil {
				pp.HasPool = true
				pp.Timeouts += pl.Timeouts
				pp.MaxWaiting = max(pp.MaxWaiting, pl.MaxWaiting)
			}
			worst := 0.0
			for _, e := range t.Load.Endpoints {
				if fast[e.Method+" "+e.Path] && e.Status >= 200 && e.Status < 300 && e.Requests > e.Errors {
					worst = max(worst, e.P99Ms)
				}
			}
			if worst > 0 {
				p99s = append(p99s, worst)
			}
		}
		if len(p99s) > 0 {
			pp.FastP99 = Median(p99s)
		}
		ps.Points = append(ps.Points, pp)
	}
	RecommendPool(ps)
	return ps
}

// endpointLine is one request line (method and path) with its median p50
// over the trials' successful answers.
type endpointLine struct {
	key string
	p50 float64
}

// endpointLines lists the trials' request lines, fastest first.
func endpointLines(trials []lab.Trial) []endpointLine {
	p50s := map[string][]float64{}
	var order []string
	for _, t := range trials {
		for _, e := range t.Load.Endpoints {
			k := e.Method + " " + e.Path
			if _, ok := p50s[k]; !ok {
				order = append(order, k)
				p50s[k] = nil
			}
			if e.Status >= 200 && e.Status < 300 && e.Requests > e.Errors {
				p50s[k] = append(p50s[k], e.P50Ms)
			}
		}
	}
	var out []endpointLine
	for _, k := range order {
		l := endpointLine{key: k}
		if len(p50s[k]) > 0 {
			l.p50 = Median(p50s[k])
		}
		out = append(out, l)
	}
	slices.SortStableFunc(out, func(a, b endpointLine) int { return cmp.Compare(a.p50, b.p50) })
	return out
}

// RecommendPool sets ps's bound, recommendation and sentence from its
// points (smallest first): the smallest size without a 504 or an
// acquisition timeout whose fast p99 is within the bound.
func RecommendPool(ps *PoolSizing) {
	ps.BestP99, ps.Bound, ps.Recommended = 0, 0, ""
	best := ""
	for _, p := range ps.Points {
		if p.FastP99 > 0 && (ps.BestP99 == 0 || p.FastP99 < ps.BestP99) {
			ps.BestP99, best = p.FastP99, p.Size
		}
	}
	if ps.BestP99 == 0 {
		ps.Sentence = "no fast request succeeded at any db-pool: no size to recommend"
		return
	}
	ps.Bound = max(PoolBoundFactor*ps.BestP99, ps.BestP99+PoolBoundSlackMs)
	bound := fmt.Sprintf("the fast requests' p99 within %s ms (%g× their best, %s ms at db-pool %s, or that + %g ms)",
		format.Num(ps.Bound, 3), PoolBoundFactor, format.Num(ps.BestP99, 3), best, PoolBoundSlackMs)
	var below *PoolPoint
	for i, p := range ps.Points {
		if p.Clean() && p.FastP99 > 0 && p.FastP99 <= ps.Bound {
			ps.Recommended = p.Variant
			ps.Sentence = fmt.Sprintf("db-pool %s: the smallest pool without a 504 or an acquisition timeout, with %s (%s ms here)",
				p.Size, bound, format.Num(p.FastP99, 3))
			if i > 0 {
				below = &ps.Points[i-1]
			}
			break
		}
	}
	if ps.Recommended == "" {
		ps.Sentence = "no db-pool swept served this load without a 504 or an acquisition timeout and with " + bound + ": try larger pools, or fewer slow requests"
		return
	}
	if below != nil {
		ps.Sentence += fmt.Sprintf("; db-pool %s had %s", below.Size, below.trouble(ps.Bound))
	}
}

// trouble says what went wrong at a size below the recommendation.
func (p PoolPoint) trouble(bound float64) string {
	var parts []string
	if p.Gateway > 0 {
		parts = append(parts, fmt.Sprintf("%d 504s", p.Gateway))
	}
	if p.Timeouts > 0 {
		parts = append(parts, fmt.Sprintf("%d acquisition timeouts", p.Timeouts))
	}
	if p.MaxWaiting > 0 {
		parts = append(parts, fmt.Sprintf("up to %d requests waiting", p.MaxWaiting))
	}
	if p.FastP99 > bound {
		parts = append(parts, fmt.Sprintf("a fast p99 of %s ms", format.Num(p.FastP99, 3)))
	}
	if p.FastP99 == 0 {
		parts = append(parts, "no fast request answered")
	}
	if len(parts) == 0 {
		return "no trouble measured"
	}
	return joinAnd(parts)
}
