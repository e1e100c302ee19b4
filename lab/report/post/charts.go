package post

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/pgrst-lab/pgrst-lab/lab/report"
	"github.com/pgrst-lab/pgrst-lab/lab/report/chart"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// chartW and chartH are the charts' size: 9 × 4 inches, 864 px wide at
// 96 dpi (the article's column), room for the thread's long scenario
// names side by side; printed, the page scales them down.
const chartW, chartH = 9 * vg.Inch, 4 * vg.Inch

// figures are the article's charts: the limits, CPU per request, peak
// memory, then each scenario's latency against the offered rate.
func figures(srcs []Source, cols []column) ([]Figure, error) {
	var out []Figure
	add := func(file string, p *plot.Plot, ok bool, caption string) error {
		if !ok {
			return nil
		}
		svg, err := chart.Render(p, chartW, chartH)
		if err != nil {
			return fmt.Errorf("post: %w", err)
		}
		out = append(out, Figure{File: file, Chart: chart.Chart{Title: p.Title.Text, SVG: svg, Caption: caption}})
		return nil
	}
	lim := limitRows(srcs, cols)
	p, ok := limitsPlot(srcs, cols, lim)
	if err := add("limits.svg", p, ok, "Each scenario's highest rate within the limit (log axis): the median over the trials, the bar its 95 % "+
		"interval as the limits table states it (of the mean for a sustained search, of the median otherwise; the "+
		"range under enough trials for one)."); err != nil {
		return nil, err
	}
	p, ok = dotsPlot(srcs, cols, lim, "CPU per request at the limit", "µs of CPU per request (log)", []string{"PostgREST", "PostgreSQL"}, true,
		func(r stats.LimitRow) []float64 { return []float64{r.ServerUs, r.DBUs} })
	if err := add("cpu.svg", p, ok, "CPU time per answered request during the limit's trials (the median over them), PostgREST's "+
		"process and PostgreSQL's backends apart, as the limits table's server and db columns state it."); err != nil {
		return nil, err
	}
	p, ok = dotsPlot(srcs, cols, lim, "Peak memory of PostgREST", "MB", []string{"peak RSS"}, false,
		func(r stats.LimitRow) []float64 { return []float64{float64(r.PeakRSS) / 1e6} })
	if err := add("memory.svg", p, ok, "PostgREST's highest resident memory during each scenario's trials, in MB as the limits table "+
		"states it."); err != nil {
		return nil, err
	}
	for _, sc := range scenarios(srcs) {
		p, ok := kneePlot(srcs, cols, sc)
		if err := add("latency-"+slug(sc)+".svg", p, ok, "Every step of "+sc+"'s searches, every trial: the rate offered and the "+
			"P95 latency it got (log axis); a cross broke the limit (latency, errors, drops or the achieved rate), the "+
			"dashed line is the limit's latency bound. The knee is where the points leave the floor."); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// limitsPlot is the limits as points with their intervals, a colour per
// column, the scenarios along the x axis.
func limitsPlot(srcs []Source, cols []column, lim []limit) (*plot.Plot, bool) {
	scs := scenarios(srcs)
	p := chart.New("Highest rate within the limit", "", "req/s (log)")
	p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, chart.LogTicks{}
	step := 0.6 / float64(max(len(cols), 1))
	any := false
	lowest, highest := math.Inf(1), 0.0
	for i, c := range cols {
		var pts plotter.XYs
		var los, his []float64
		for j, sc := range scs {
			for _, l := range lim {
				if l.Col.Name != c.Name || l.Row.Scenario != sc || l.Row.Rate.N == 0 || l.Row.Rate.Median <= 0 {
					continue
				}
				m := l.Row.Rate.Median
				lo, hi := report.LimitInterval(l.Row)
				if lo == 0 && hi == 0 { // one trial: no interval to draw
					lo, hi = m, m
				}
				lo, hi = math.Max(math.Min(lo, m), m/10), math.Max(hi, m)
				x := float64(j) + step*(float64(i)-float64(len(cols)-1)/2)
				pts = append(pts, plotter.XY{X: x, Y: m})
				los, his = append(los, m-lo), append(his, hi-m)
				lowest, highest = math.Min(lowest, lo), math.Max(highest, hi)
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
	// A decade above the highest whisker for the legend.
	p.Y.Min, p.Y.Max = math.Pow(10, math.Floor(math.Log10(lowest))), math.Pow(10, math.Ceil(math.Log10(highest*1.01))+1)
	p.NominalX(scs...)
	p.X.Min, p.X.Max = -0.6, float64(len(scs))-0.4
	return p, true
}
