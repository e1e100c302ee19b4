package post

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/pgrst-lab/pgrst-lab/lab/report/chart"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// The article's charts beyond the limits: latency against the offered
// rate per scenario (the knee), CPU per request (PostgREST and PostgreSQL
// apart) and peak memory, a colour per column.

// kneePlot is scenario sc's search steps of every column: the offered
// rate against the P95 latency of each step, held steps and passing ones
// filled, failing ones crosses, and the limit's P95 bound dashed.
func kneePlot(srcs []Source, cols []column, sc string) (*plot.Plot, bool) {
	p := chart.New(sc+": latency against the offered rate", "offered rate (req/s)", "p95 latency (ms, log)")
	p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, chart.LogTicks{}
	p.Legend.Left, p.Legend.Top = true, true
	lowest, highest, any := math.Inf(1), 0.0, false
	for i, c := range cols {
		var ok, bad plotter.XYs
		for _, t := range stats.TrialsOf(c.Src.Run, c.Variant, sc) {
			for _, s := range t.Curve {
				if s.Kind == "closed" || s.AskedRate <= 0 || s.P95Ms <= 0 {
					continue
				}
				pt := plotter.XY{X: s.AskedRate, Y: s.P95Ms}
				if s.OK {
					ok = append(ok, pt)
				} else {
					bad = append(bad, pt)
				}
				lowest, highest = math.Min(lowest, s.P95Ms), math.Max(highest, s.P95Ms)
			}
		}
		if len(ok)+len(bad) == 0 {
			continue
		}
		any = true
		if len(ok) > 0 {
			s, err := plotter.NewScatter(ok)
			if err != nil {
				return nil, false
			}
			s.GlyphStyle.Color, s.GlyphStyle.Shape, s.GlyphStyle.Radius = chart.Color(i), draw.CircleGlyph{}, vg.Points(2.5)
			p.Add(s)
			p.Legend.Add(c.Name+", within the limit", s)
		}
		if len(bad) > 0 {
			s, err := plotter.NewScatter(bad)
			if err != nil {
				return nil, false
			}
			s.GlyphStyle.Color, s.GlyphStyle.Shape, s.GlyphStyle.Radius = chart.Color(i), draw.CrossGlyph{}, vg.Points(3)
			p.Add(s)
			p.Legend.Add(c.Name+", beyond it", s)
		}
	}
	if !any {
		return nil, false
	}
	if slo := srcs[0].Run.Experiment.Load.Limit.P95; slo > 0 {
		ms := float64(slo.Microseconds()) / 1000
		l, err := plotter.NewLine(plotter.XYs{{X: 0, Y: ms}, {X: 1, Y: ms}})
		if err == nil {
			l.Color, l.Dashes = color.Gray{0x80}, []vg.Length{vg.Points(4), vg.Points(3)}
			p.Add(horizontal{l})
			p.Legend.Add(fmt.Sprintf("the limit: p95 < %s", slo), l)
			highest = math.Max(highest, ms)
		}
	}
	// A decade above the highest step for the legend.
	p.Y.Min, p.Y.Max = math.Pow(10, math.Floor(math.Log10(lowest))), math.Pow(10, math.Ceil(math.Log10(highest*1.01))+1)
	p.X.Min = 0
	return p, true
}

// horizontal is a line drawn across the plot's whole width at its Y.
type horizontal struct{ *plotter.Line }

func (h horizontal) Plot(c draw.Canvas, p *plot.Plot) {
	y := h.XYs[0].Y
	h.XYs = plotter.XYs{{X: p.X.Min, Y: y}, {X: p.X.Max, Y: y}}
	h.Line.Plot(c, p)
}

// DataRange leaves the X range to the points (the line spans it).
func (h horizontal) DataRange() (xmin, xmax, ymin, ymax float64) {
	y := h.XYs[0].Y
	return math.Inf(1), math.Inf(-1), y, y
}

// dotsPlot is a value per scenario of every column, a dot each, side by
// side within the scenario: value gives each column's values (one per
// name, e.g. PostgREST and PostgreSQL, told apart by the glyph).
func dotsPlot(srcs []Source, cols []column, lim []limit, title, y string, names []string, logY bool, value func(stats.LimitRow) []float64) (*plot.Plot, bool) {
	scs := scenarios(srcs)
	p := chart.New(title, "", y)
	if logY {
		p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, chart.LogTicks{}
	}
	shapes := []draw.GlyphDrawer{draw.CircleGlyph{}, draw.TriangleGlyph{}, draw.SquareGlyph{}}
	step := 0.6 / float64(max(len(cols), 1))
	lowest, highest, any := math.Inf(1), 0.0, false
	for i, c := range cols {
		for k, name := range names {
			var pts plotter.XYs
			for j, sc := range scs {
				for _, l := range lim {
					if l.Col.Name != c.Name || l.Row.Scenario != sc || l.Row.Rate.N == 0 {
						continue
					}
					if v := value(l.Row); k < len(v) && v[k] > 0 && !math.IsNaN(v[k]) {
						pts = append(pts, plotter.XY{X: float64(j) + step*(float64(i)-float64(len(cols)-1)/2), Y: v[k]})
						lowest, highest = math.Min(lowest, v[k]), math.Max(highest, v[k])
					}
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
			sc.GlyphStyle.Color, sc.GlyphStyle.Shape, sc.GlyphStyle.Radius = chart.Color(i), shapes[k%len(shapes)], vg.Points(3.5)
			p.Add(sc)
			label := c.Name
			if len(names) > 1 {
				label += ", " + name
			}
			p.Legend.Add(label, sc)
		}
	}
	if !any {
		return nil, false
	}
	// Headroom above the highest dot for the legend: a decade on a log
	// axis, a third on a linear one.
	if logY {
		p.Y.Min, p.Y.Max = math.Pow(10, math.Floor(math.Log10(lowest))), math.Pow(10, math.Ceil(math.Log10(highest*1.01))+1)
	} else {
		p.Y.Min, p.Y.Max = 0, highest*1.45
	}
	p.NominalX(scs...)
	p.X.Min, p.X.Max = -0.6, float64(len(scs))-0.4
	return p, true
}

// slug is a scenario's name as a file name: lower case, letters and
// digits, runs of anything else one dash.
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	out := strings.TrimSuffix(b.String(), "-")
	if len(out) > 40 {
		out = out[:40]
	}
	if out == "" {
		out = "scenario"
	}
	return out
}
