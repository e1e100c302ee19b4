package post

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/pgrst-lab/pgrst-lab/lab/report/chart"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// chartW and chartH are the charts' size: 6.5 × 3.6 inches, 624 px wide
// at 96 dpi, readable at 1280 px and on a printed page.
const chartW, chartH = 6.5 * vg.Inch, 3.6 * vg.Inch

// figures are the article's charts.
func figures(srcs []Source, cols []column) ([]Figure, error) {
	var out []Figure
	lim := limitRows(srcs, cols)
	if p, ok := limitsPlot(srcs, cols, lim); ok {
		svg, err := chart.Render(p, chartW, chartH)
		if err != nil {
			return nil, fmt.Errorf("post: %w", err)
		}
		out = append(out, Figure{File: "limits.svg", Chart: chart.Chart{Title: p.Title.Text, SVG: svg,
			Caption: "Each scenario's highest rate within the limit (log axis): the median over the trials, the bar its 95 % " +
				"interval as the limits table states it (of the mean for a sustained search, of the median otherwise; the " +
				"range under enough trials for one)."}})
	}
	return out, nil
}

// span is the interval the limits table states for a row: the mean's 95 %
// interval of a sustained search, the median's when bounded, or the range.
func span(r stats.LimitRow) (lo, hi float64) {
	switch {
	case r.Sustained && !math.IsNaN(r.HalfWidth):
		return r.Mean - r.HalfWidth, r.Mean + r.HalfWidth
	case r.Rate.Bounded():
		return r.Rate.Lo, r.Rate.Hi
	}
	return r.Min, r.Max
}

// limitsPlot is the limits as points with their intervals, a colour per
// column, the scenarios along the x axis.
func limitsPlot(srcs []Source, cols []column, lim []limit) (*plot.Plot, bool) {
	scs := scenarios(srcs)
	p := chart.New("Highest rate within the limit", "", "req/s (log)")
	p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
	step := 0.6 / float64(max(len(cols), 1))
	any := false
	lowest := math.Inf(1)
	for i, c := range cols {
		var pts plotter.XYs
		var los, his []float64
		for j, sc := range scs {
			for _, l := range lim {
				if l.Col.Name != c.Name || l.Row.Scenario != sc || l.Row.Rate.N == 0 || l.Row.Rate.Median <= 0 {
					continue
				}
				m := l.Row.Rate.Median
				lo, hi := span(l.Row)
				lo, hi = math.Max(math.Min(lo, m), m/10), math.Max(hi, m)
				x := float64(j) + step*(float64(i)-float64(len(cols)-1)/2)
				pts = append(pts, plotter.XY{X: x, Y: m})
				los, his = append(los, m-lo), append(his, hi-m)
				lowest = math.Min(lowest, lo)
			}
		}
		if len(pts) == 0 {
			continue
		}
		any = true
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, false
		}
		sc.GlyphStyle.Color, sc.GlyphStyle.Shape, sc.GlyphStyle.Radius = chart.Color(i), draw.CircleGlyph{}, vg.Points(3.5)
		eb, err := plotter.NewYErrorBars(chart.ErrBars{XYs: pts, Lo: los, Hi: his})
		if err != nil {
			return nil, false
		}
		eb.LineStyle.Color, eb.LineStyle.Width = chart.Color(i), vg.Points(1.5)
		p.Add(eb, sc)
		p.Legend.Add(c.Name, sc)
	}
	if !any {
		return nil, false
	}
	p.Y.Min = math.Pow(10, math.Floor(math.Log10(lowest)))
	p.NominalX(scs...)
	p.X.Min, p.X.Max = -0.6, float64(len(scs))-0.4
	return p, true
}
