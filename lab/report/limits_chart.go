package report

import (
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

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
		value             func(stats.LimitRow) float64
		log               bool
	}{
		{"Highest rate within the limit", "req/s (log)", "Median over the trials of each scenario's capacity search.",
			func(r stats.LimitRow) float64 { return r.Rate.Median }, true},
		{"Peak memory of the target", "MiB", "The target's highest resident memory during each scenario's trials.",
			func(r stats.LimitRow) float64 { return float64(r.PeakRSS) / (1 << 20) }, false},
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

func limitsBars(rows []stats.LimitRow, title, y string, value func(stats.LimitRow) float64, logY bool) (*plot.Plot, bool) {
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
	for i, name := range variants {
		vals := make(plotter.Values, len(scenarios))
		for j, sc := range scenarios {
			vals[j] = math.NaN()
			for _, r := range rows {
				if r.Variant == name && r.Scenario == sc {
					if v := value(r); v > 0 && !math.IsNaN(v) {
						vals[j], any = v, true
						if logY {
							vals[j] = math.Log10(max(v, 1)) // bars from 1 req/s, on decades
						}
					}
				}
			}
			if math.IsNaN(vals[j]) {
				vals[j] = 0
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
	p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = -0.9, -0.2
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
