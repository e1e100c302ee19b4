package calibration

import (
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/calibrate"
	"github.com/pgrst-lab/pgrst-lab/lab/report/chart"
)

// PowerChart draws the detection rate per effect with its intervals, and
// the false-positive rate of the A/A runs at 0: one curve per design when
// the calibration compared designs.
func PowerChart(res *calibrate.Result) (chart.Chart, error) {
	p := chart.New("Power curve: "+res.Experiment, "injected effect (%)", "runs declaring a difference (%)")
	var designs []lab.Order
	byDesign := map[lab.Order][]calibrate.Row{}
	for _, r := range res.Rows {
		if r.Runs == 0 {
			continue
		}
		if _, ok := byDesign[r.Design]; !ok {
			designs = append(designs, r.Design)
		}
		byDesign[r.Design] = append(byDesign[r.Design], r)
	}
	if len(designs) == 0 {
		return chart.Chart{}, nil
	}
	last := 0.0
	for i, d := range designs {
		var pts plotter.XYs
		var lo, hi []float64
		for _, r := range byDesign[d] {
			pts = append(pts, plotter.XY{X: r.EffectPct, Y: 100 * r.Rate})
			lo = append(lo, 100*(r.Rate-r.RateLo))
			hi = append(hi, 100*(r.RateHi-r.Rate))
			last = max(last, r.EffectPct)
		}
		line, dots, err := plotter.NewLinePoints(pts)
		if err != nil {
			return chart.Chart{}, err
		}
		line.Color, dots.Color, dots.Shape = chart.Color(i), chart.Color(i), draw.CircleGlyph{}
		bars, err := plotter.NewYErrorBars(chart.ErrBars{XYs: pts, Lo: lo, Hi: hi})
		if err != nil {
			return chart.Chart{}, err
		}
		bars.Color = chart.Color(i)
		p.Add(line, dots, bars)
		label := "detected (at 0: A/A false positives)"
		if d != "" {
			label = string(d) + ": " + label
		}
		p.Legend.Add(label, line, dots)
	}
	if last == 0 {
		last = 1
	}
	target, _ := plotter.NewLine(plotter.XYs{{X: 0, Y: 80}, {X: last, Y: 80}})
	target.Color, target.Dashes = chart.Color(4), []vg.Length{vg.Points(4), vg.Points(3)}
	alpha, _ := plotter.NewLine(plotter.XYs{{X: 0, Y: 100 * res.Trials.Alpha}, {X: last, Y: 100 * res.Trials.Alpha}})
	alpha.Color, alpha.Dashes = chart.Color(2), []vg.Length{vg.Points(2), vg.Points(2)}
	p.Add(target, alpha)
	p.Legend.Add("80% power", target)
	p.Legend.Add("alpha", alpha)
	p.Legend.Left = true // the curve rises to the right
	p.X.Min, p.X.Max = -0.04*last, 1.04*last
	p.Y.Min, p.Y.Max = 0, 105
	svg, err := chart.Render(p, 16*vg.Centimeter, 10*vg.Centimeter)
	if err != nil {
		return chart.Chart{}, err
	}
	return chart.Chart{Title: p.Title.Text, SVG: svg,
		Caption: "Share of runs that found the injected slowdown (\"worse\"), with 95% Wilson intervals; at 0 the A/A runs' false positives."}, nil
}
