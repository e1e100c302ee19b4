package report

import (
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report/chart"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// limitsCharts are the limits table as charts: the highest rate per
// scenario (log axis: GETAllEmbed is a hundred times below GETSingle) and
// the target's peak memory per scenario, one bar per variant.
func limitsCharts(run *lab.Run) ([]chart.Chart, error) {
	rows := stats.Limits(run)
	if len(rows) == 0 {
		return nil, nil
	}
	var out []chart.Chart
	for _, c := range []struct {
		title, y, caption string
		value             func(stats.LimitRow) (mid, lo, hi float64)
		log               bool
	}{
		{"Highest rate within the limit", "req/s (log)", "Median over the trials of each scenario's capacity search; the whisker is its interval as the table gives it (95 % CI, or the range under 6 trials).",
			func(r stats.LimitRow) (float64, float64, float64) {
				lo, hi := limitInterval(r)
				return r.Rate.Median, lo, hi
			}, true},
		{"Peak memory of the target", "MB", "The target's highest resident memory during each scenario's trials.",
			func(r stats.LimitRow) (float64, float64, float64) { m := float64(r.PeakRSS) / 1e6; return m, m, m }, false},
	} {
		p, ok := limitsBars(rows, c.title, c.y, c.value, c.log)
		if !ok {
			continue
		}
		svg, err := chart.Render(p, 6.5*vg.Inch, 3.4*vg.Inch)
		if err != nil {
			return nil, err
		}
		out = append(out, chart.Chart{Title: c.title, Caption: c.caption, SVG: svg})
	}
	return out, nil
}

func limitsBars(rows []stats.LimitRow, title, y string, value func(stats.LimitRow) (mid, lo, hi float64), logY bool) (*plot.Plot, bool) {
	var scenarios, variants []string
	for _, r := range rows {
		if !slices.Contains(scenarios, r.Scenario) {
			scenarios = append(scenarios, r.Scenario)
		}
		if !slices.Contains(variants, r.Variant) {
			variants = append(variants, r.Variant)
		}
	}
	p := chart.New(title, "", y)
	width := vg.Points(math.Min(28, 320/float64(len(scenarios)*len(variants))))
	any := false
	scale := func(v float64) float64 {
		if logY {
			return math.Log10(max(v, 1)) // bars from 1 req/s, on decades
		}
		return v
	}
	for i, name := range variants {
		vals := make(plotter.Values, len(scenarios))
		errs := chart.ErrBars{XYs: make(plotter.XYs, len(scenarios)), Lo: make([]float64, len(scenarios)), Hi: make([]float64, len(scenarios))}
		for j, sc := range scenarios {
			errs.XYs[j].X = float64(j)
			for _, r := range rows {
				if r.Variant != name || r.Scenario != sc {
					continue
				}
				if v, lo, hi := value(r); v > 0 && !math.IsNaN(v) {
					vals[j], any = scale(v), true
					errs.XYs[j].Y = vals[j]
					if lo > 0 && hi > lo && !math.IsInf(hi, 0) {
						errs.Lo[j], errs.Hi[j] = max(0, vals[j]-scale(lo)), max(0, scale(hi)-vals[j])
					}
				}
			}
		}
		bars, err := plotter.NewBarChart(vals, width)
		if err != nil {
			return nil, false
		}
		bars.Color = chart.Color(i)
		bars.LineStyle.Width = 0
		bars.Offset = width * vg.Length(float64(i)-float64(len(variants)-1)/2)
		p.Add(bars)
		if eb, err := plotter.NewYErrorBars(errs); err == nil && spread(errs) {
			p.Add(shifted{eb, bars.Offset})
		}
		if len(variants) > 1 {
			p.Legend.Add(name, bars)
		}
	}
	if !any {
		return nil, false
	}
	if logY {
		p.Y.Tick.Marker = decades{}
		p.Y.Min = 0
	}
	p.NominalX(scenarios...)
	p.X.Tick.Label.Rotation = 0.5
	// Each label ends below its tick, clear of the bars above the axis.
	p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YTop
	return p, true
}

// decades labels a log10 axis drawn on a linear one: 1, 10, 100, ...
// (gonum's log scale cannot draw bars, which start at 0).
type decades struct{}

func (decades) Ticks(min, max float64) []plot.Tick {
	var ts []plot.Tick
	for k := math.Floor(min); k <= math.Ceil(max); k++ {
		ts = append(ts, plot.Tick{Value: k, Label: strconv.FormatFloat(math.Pow(10, k), 'f', -1, 64)})
	}
	return ts
}

// limitInterval is the interval the limits table states for r's rate
// (LimitsCells' interval column): the mean's CI of a sustained search, the
// median's CI, or the trials' range; 0, 0 when there is none.
func limitInterval(r stats.LimitRow) (lo, hi float64) {
	switch {
	case r.Sustained && !math.IsNaN(r.HalfWidth):
		return r.Mean - r.HalfWidth, r.Mean + r.HalfWidth
	case r.Rate.Bounded():
		return r.Rate.Lo, r.Rate.Hi
	case r.Rate.N > 1:
		return r.Min, r.Max
	}
	return 0, 0
}

// spread says whether any of e's intervals has a width.
func spread(e chart.ErrBars) bool {
	for i := range e.Lo {
		if e.Lo[i] > 0 || e.Hi[i] > 0 {
			return true
		}
	}
	return false
}

// shifted draws error bars off along X by a bar's offset, over their bar.
type shifted struct {
	*plotter.YErrorBars
	off vg.Length
}

func (s shifted) Plot(c draw.Canvas, p *plot.Plot) {
	c.Rectangle.Min.X += s.off
	c.Rectangle.Max.X += s.off
	s.YErrorBars.Plot(c, p)
}
