package sweep

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report/chart"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// charts draws, for one scenario, each metric against the swept value:
// the median as a line through the values, its confidence interval as a
// band; in a grid one line per value of the second key. The x axis is
// logarithmic for geometric values; text values are evenly spaced.
func charts(run *lab.Run, sw *stats.SweepResult, sc stats.SweepScenario) ([]chart.Chart, error) {
	s := run.Experiment.Sweep
	if s == nil || len(sc.Points) == 0 {
		return nil, nil
	}
	first := s.List()
	xs, numeric := s.Numbers()
	logX := numeric && sw.Geometric && slices.Min(xs) > 0
	xOf := func(v string) float64 {
		i := slices.Index(first, v)
		if numeric && i >= 0 {
			return xs[i]
		}
		return float64(i)
	}
	var ticks []plot.Tick
	for i, v := range first {
		x := float64(i)
		if numeric {
			x = xs[i]
		}
		ticks = append(ticks, plot.Tick{Value: x, Label: valueLabel(v)})
	}
	var series []string // values of the second key; one "" without a grid
	for _, p := range sc.Points {
		k := ""
		if len(p.Values) > 1 {
			k = p.Values[1]
		}
		if !slices.Contains(series, k) {
			series = append(series, k)
		}
	}
	var out []chart.Chart
	for _, m := range metrics(sw) {
		title := fmt.Sprintf("%s: %s vs %s", sc.Scenario, strings.TrimSuffix(metricTitle(run, m), " ("+m.Unit+")"), s.Label())
		p := chart.New(title, s.Label(), m.Unit)
		any := false
		for si, k := range series {
			var pts []stats.SweepPointResult
			for _, pt := range sc.Points {
				if _, ok := pt.Metrics[m.Name]; ok && (k == "" || pt.Values[1] == k) {
					pts = append(pts, pt)
				}
			}
			slices.SortFunc(pts, func(a, b stats.SweepPointResult) int {
				return int(math.Copysign(1, xOf(a.Values[0])-xOf(b.Values[0])))
			})
			if len(pts) == 0 {
				continue
			}
			any = true
			var line, lo, hi plotter.XYs
			for _, pt := range pts {
				su, x := pt.Metrics[m.Name], xOf(pt.Values[0])
				line = append(line, plotter.XY{X: x, Y: su.Median})
				l, h := su.Lo, su.Hi
				if !su.Bounded() {
					l, h = su.Median, su.Median
				}
				lo, hi = append(lo, plotter.XY{X: x, Y: l}), append(hi, plotter.XY{X: x, Y: h})
			}
			c := chart.Color(si)
			band := append(slices.Clone(lo), reversed(hi)...)
			if poly, err := plotter.NewPolygon(band); err == nil && len(pts) > 1 {
				poly.Color = color.NRGBA{c.R, c.G, c.B, 0x50}
				poly.LineStyle.Width = 0
				p.Add(poly)
			}
			l, sct, err := plotter.NewLinePoints(line)
			if err != nil {
				continue
			}
			l.Color, sct.Color, l.Width = c, c, vg.Points(2)
			sct.Shape, sct.Radius = draw.CircleGlyph{}, vg.Points(4)
			p.Add(l, sct)
			if k != "" {
				p.Legend.Add(axisLabel(sw.Keys[1])+" "+valueLabel(k), l)
			}
		}
		if !any {
			continue
		}
		if rec := sc.Recommendation.Cheapest; rec != "" {
			for _, pt := range sc.Points {
				if su, ok := pt.Metrics[m.Name]; ok && pt.Variant == rec {
					mk, _ := plotter.NewScatter(plotter.XYs{{X: xOf(pt.Values[0]), Y: su.Median}})
					mk.Shape, mk.Radius, mk.Color = draw.RingGlyph{}, vg.Points(7), color.RGBA{0x1d, 0x6b, 0x1d, 0xff}
					p.Add(mk)
				}
			}
		}
		if logX {
			p.X.Scale = plot.LogScale{}
		}
		p.X.Tick.Marker = plot.ConstantTicks(ticks)
		if numeric && len(xs) > 0 {
			lo, hi := slices.Min(xs), slices.Max(xs)
			if logX {
				p.X.Min, p.X.Max = lo/1.3, hi*1.3
			} else {
				pad := (hi - lo) * 0.05
				p.X.Min, p.X.Max = lo-pad, hi+pad
			}
		} else {
			p.X.Min, p.X.Max = -0.5, float64(len(first))-0.5
		}
		svg, err := chart.Render(p, 5*vg.Inch, 3.4*vg.Inch)
		if err != nil {
			return nil, err
		}
		caption := "Median of the trials at each value; the band is its 95% confidence interval"
		if sc.Recommendation.Cheapest != "" {
			caption += "; the ring marks the recommended value"
		}
		out = append(out, chart.Chart{Title: title, SVG: svg, Caption: caption + "."})
	}
	return out, nil
}

func reversed(xy plotter.XYs) plotter.XYs {
	out := slices.Clone(xy)
	slices.Reverse(out)
	return out
}
