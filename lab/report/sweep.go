package report

import (
	"bufio"
	"fmt"
	"html/template"
	"image/color"
	"io"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report/chart"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// A sweep's section: per scenario the recommendation, a table of every
// value's medians, and (HTML) each metric against the swept value as a
// curve with its confidence band.

// htmlSweep is the sweep section of the HTML page.
type htmlSweep struct {
	Title     string
	Note      string
	Header    []string
	Scenarios []htmlSweepScenario
}

type htmlSweepScenario struct {
	Name           string
	Recommendation string
	CannotTell     bool
	Rows           []htmlSweepRow
	Charts         []chart.Chart
}

type htmlSweepRow struct {
	Cells       []string
	Recommended bool
	Best        bool
}

// sweepMetricTitle names a curve's metric; with the search model the
// throughput is the highest rate meeting the latency limit.
func sweepMetricTitle(run *lab.Run, m lab.Metric) string {
	if m.Name == "rate" && run.Experiment.Load.Model.SearchesEachTrial() {
		return "highest rate within the limit (req/s)"
	}
	return metricTitle(m)
}

// sweepMetrics are the SweepMetrics measured in the sweep.
func sweepMetrics(sw *stats.SweepResult) []lab.Metric {
	var out []lab.Metric
	for _, name := range stats.SweepMetrics {
		m, _ := lab.MetricByName(name)
		for _, sc := range sw.Scenarios {
			if slices.ContainsFunc(sc.Points, func(p stats.SweepPointResult) bool { _, ok := p.Metrics[name]; return ok }) {
				out = append(out, m)
				break
			}
		}
	}
	return out
}

// sweepTable is the header and rows of one scenario's table: value(s),
// then the median ± CI of each metric; marks the recommended and best.
func sweepTable(run *lab.Run, sw *stats.SweepResult, sc stats.SweepScenario) ([]string, []htmlSweepRow) {
	ms := sweepMetrics(sw)
	header := []string{}
	for _, k := range sw.Keys {
		header = append(header, axisLabel(k))
	}
	for _, m := range ms {
		header = append(header, sweepMetricTitle(run, m))
	}
	var rows []htmlSweepRow
	for _, p := range sc.Points {
		r := htmlSweepRow{Recommended: p.Variant == sc.Recommendation.Cheapest, Best: p.Variant == sc.Recommendation.Best}
		for _, v := range p.Values {
			r.Cells = append(r.Cells, valueLabel(v))
		}
		for _, m := range ms {
			r.Cells = append(r.Cells, summary(p.Metrics[m.Name]))
		}
		rows = append(rows, r)
	}
	return header, rows
}

func axisLabel(key string) string {
	if _, k, ok := strings.Cut(key, "."); ok {
		return k
	}
	return key
}

func valueLabel(v string) string {
	if strings.TrimSpace(v) == "" {
		return "default"
	}
	return v
}

func sweepNote(sw *stats.SweepResult) string {
	return fmt.Sprintf("Swept %s; values from cheapest to dearest (%s). The recommendation is the cheapest value the verdicts' test "+
		"cannot tell from the best (a difference counts when significant and at least the minimum detectable effect); "+
		"▶ marks it, ★ the best.", strings.Join(sw.Keys, " × "), sw.Order)
}

// htmlSweepOf builds the HTML section (nil without a sweep).
func htmlSweepOf(run *lab.Run, v *stats.Verdicts) (*htmlSweep, error) {
	sw := v.Sweep
	if sw == nil {
		return nil, nil
	}
	hs := &htmlSweep{Title: "Sweep: " + strings.Join(sw.Keys, " × "), Note: sweepNote(sw)}
	for _, sc := range sw.Scenarios {
		header, rows := sweepTable(run, sw, sc)
		hs.Header = header
		charts, err := sweepCharts(run, sw, sc)
		if err != nil {
			return nil, err
		}
		hs.Scenarios = append(hs.Scenarios, htmlSweepScenario{Name: sc.Scenario, Recommendation: sc.Recommendation.Sentence,
			CannotTell: sc.Recommendation.CannotTell, Rows: rows, Charts: charts})
	}
	return hs, nil
}

var _ = template.Must(page.New("sweep").Parse(`<h2>{{.Title}}</h2>
<p class="muted">{{.Note}}</p>
{{range .Scenarios}}<h3>{{.Name}}</h3>
<p class="note{{if .CannotTell}} bad{{end}}"><b>Recommendation:</b> {{.Recommendation}}.</p>
<table><tr>{{range $.Header}}<th>{{.}}</th>{{end}}<th></th></tr>
{{range .Rows}}<tr>{{range .Cells}}<td>{{.}}</td>{{end}}<td class="l">{{if .Recommended}}▶ recommended{{end}}{{if .Best}} ★ best{{end}}</td></tr>
{{end}}</table>
<div class="charts">{{range .Charts}}<figure>{{.SVG}}{{with .Caption}}<figcaption>{{.}}</figcaption>{{end}}</figure>{{end}}</div>
{{end}}`))

// mdSweep writes the sweep section of report.md.
func mdSweep(b *bufio.Writer, run *lab.Run, v *stats.Verdicts) {
	sw := v.Sweep
	if sw == nil {
		return
	}
	fmt.Fprintf(b, "## Sweep: %s\n\n%s\n\n", format.MdEscape(strings.Join(sw.Keys, " × ")), format.Wrap(sweepNote(sw), 110))
	for _, sc := range sw.Scenarios {
		fmt.Fprintf(b, "### %s\n\n%s\n\n", format.MdEscape(sc.Scenario), format.Wrap("**Recommendation:** "+format.MdEscape(sc.Recommendation.Sentence)+".", 110))
		header, rows := sweepTable(run, sw, sc)
		fmt.Fprintf(b, "| %s | |\n|%s---|\n", strings.Join(header, " | "), strings.Repeat("---|", len(header)))
		for _, r := range rows {
			fmt.Fprintf(b, "| %s | %s |\n", strings.Join(r.Cells, " | "), marks(r))
		}
		fmt.Fprintln(b)
	}
}

// terminalSweep writes the sweep's recommendation and table for a terminal.
func terminalSweep(w io.Writer, run *lab.Run, v *stats.Verdicts) {
	sw := v.Sweep
	if sw == nil {
		return
	}
	for _, sc := range sw.Scenarios {
		fmt.Fprintf(w, "\nSweep %s, %s:\n", strings.Join(sw.Keys, " × "), sc.Scenario)
		header, rows := sweepTable(run, sw, sc)
		lines := [][]string{header}
		for _, r := range rows {
			lines = append(lines, append(slices.Clone(r.Cells), marks(r)))
		}
		format.Columns(w, "  ", lines)
		fmt.Fprintf(w, "  Recommendation: %s.\n", sc.Recommendation.Sentence)
	}
}

func marks(r htmlSweepRow) string {
	var m []string
	if r.Recommended {
		m = append(m, "▶ recommended")
	}
	if r.Best {
		m = append(m, "★ best")
	}
	return strings.Join(m, " ")
}

// sweepCharts draws, for one scenario, each metric against the swept value:
// the median as a line through the values, its confidence interval as a
// band; in a grid one line per value of the second key. The x axis is
// logarithmic for geometric values; text values are evenly spaced.
func sweepCharts(run *lab.Run, sw *stats.SweepResult, sc stats.SweepScenario) ([]chart.Chart, error) {
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
	for _, m := range sweepMetrics(sw) {
		title := fmt.Sprintf("%s: %s vs %s", sc.Scenario, strings.TrimSuffix(sweepMetricTitle(run, m), " ("+m.Unit+")"), s.Label())
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
