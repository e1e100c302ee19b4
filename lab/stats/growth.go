package stats

import (
	"math"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// Growth is how fast a series grows over a trial: a least-squares line
// through its bin means, with the slope's confidence interval.
type Growth struct {
	PerHour float64 // slope, in the series' unit per hour
	Lo, Hi  float64 // its confidence interval (Confidence)
	// Confidence is the interval's level; Bins the means the line went
	// through, and Seconds the span they cover.
	Confidence float64
	Bins       int
	Seconds    float64
}

// GrowthBins is how many bin means a growth line goes through: samples
// 100 ms apart are far from independent (RSS changes by GC cycles and
// allocations that last seconds), their means over a thirtieth of the
// trial much less so. The interval still assumes the means' residuals
// independent: a soak's slow oscillations widen the truth, not the bound.
const GrowthBins = 30

// GrowthOf fits a line to (t, v) samples (t in seconds) through GrowthBins
// bin means and returns its slope per hour with a 1-alpha interval (t
// distribution, bins-2 degrees of freedom). ok is false with fewer than 4
// non-empty bins.
func GrowthOf(t, v []float64, alpha float64) (Growth, bool) {
	if len(t) != len(v) || len(t) < 4 {
		return Growth{}, false
	}
	t0, t1 := t[0], t[len(t)-1]
	for _, x := range t {
		t0, t1 = math.Min(t0, x), math.Max(t1, x)
	}
	if t1 <= t0 {
		return Growth{}, false
	}
	width := (t1 - t0) / GrowthBins
	var sx, sy, n [GrowthBins]float64
	for i := range t {
		b := min(GrowthBins-1, int((t[i]-t0)/width))
		sx[b] += t[i]
		sy[b] += v[i]
		n[b]++
	}
	var xs, ys []float64
	for b := range GrowthBins {
		if n[b] > 0 {
			xs, ys = append(xs, sx[b]/n[b]), append(ys, sy[b]/n[b])
		}
	}
	k := float64(len(xs))
	if k < 4 {
		return Growth{}, false
	}
	var mx, my float64
	for i := range xs {
		mx, my = mx+xs[i]/k, my+ys[i]/k
	}
	var sxx, sxy float64
	for i := range xs {
		sxx += (xs[i] - mx) * (xs[i] - mx)
		sxy += (xs[i] - mx) * (ys[i] - my)
	}
	slope := sxy / sxx
	var sse float64
	for i := range xs {
		r := ys[i] - my - slope*(xs[i]-mx)
		sse += r * r
	}
	se := math.Sqrt(sse / (k - 2) / sxx)
	half := tQuantile(k-2, 1-alpha/2) * se
	const hour = 3600
	return Growth{PerHour: slope * hour, Lo: (slope - half) * hour, Hi: (slope + half) * hour,
		Confidence: 1 - alpha, Bins: len(xs), Seconds: t1 - t0}, true
}

// LiveGrowth is the GHC runtime's live heap growth over trial t, in bytes
// per hour (GrowthOf over the live heap after each major collection,
// profile = true); ok is false without enough collections.
func LiveGrowth(t lab.Trial, alpha float64) (Growth, bool) {
	if t.GHC == nil {
		return Growth{}, false
	}
	var ts, vs []float64
	for _, s := range t.GHC.Live {
		ts, vs = append(ts, s.T), append(vs, float64(s.Bytes))
	}
	return GrowthOf(ts, vs, alpha)
}

// RSSGrowth is the target's resident memory growth over trial t, in bytes
// per hour (GrowthOf over its telemetry samples).
func RSSGrowth(t lab.Trial, alpha float64) (Growth, bool) {
	var ts, vs []float64
	for _, s := range t.Server.Samples {
		if s.RSS > 0 {
			ts, vs = append(ts, s.T), append(vs, float64(s.RSS))
		}
	}
	return GrowthOf(ts, vs, alpha)
}
