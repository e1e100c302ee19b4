package report

import (
	"cmp"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report/chart"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// trialsChart shows, per variant, each trial's value of the run's primary
// metric (dots) and the median with its confidence interval (error bars):
// throughput, or CPU per request in the efficiency model, whose trials all
// run at the same rate (a throughput chart would plot a constant).
func trialsChart(run *lab.Run, v *stats.Verdicts, sc string) (*plot.Plot, bool) {
	names := append([]string{v.Baseline}, v.Variants...)
	rate := lab.PrimaryMetric(&run.Experiment)
	p := chart.New(sc+": "+rate.Label+" per variant", "", rate.Unit)
	p.Legend.Top = false
	any := false
	for i, name := range names {
		var vals []float64
		for _, t := range stats.TrialsOf(run, name, sc) {
			if x, ok := rate.Of(t); ok && t.Error == "" {
				vals = append(vals, x)
			}
		}
		if len(vals) == 0 {
			continue
		}
		any = true
		s, _ := stats.Summarize(vals)
		dots := make(plotter.XYs, len(vals))
		for j, x := range vals {
			dots[j] = plotter.XY{X: float64(i) - 0.18 + 0.36*float64(j)/math.Max(1, float64(len(vals)-1)), Y: x}
		}
		sct, _ := plotter.NewScatter(dots)
		sct.GlyphStyle.Color = color.RGBA{0x99, 0x99, 0x99, 0xff}
		sct.GlyphStyle.Radius = vg.Points(2)
		p.Add(sct)
		mid := plotter.XYs{{X: float64(i), Y: s.Median}}
		if s.Bounded() {
			eb, err := plotter.NewYErrorBars(chart.ErrBars{XYs: mid, Lo: []float64{s.Median - s.Lo}, Hi: []float64{s.Hi - s.Median}})
			if err == nil {
				eb.LineStyle.Color = chart.Color(i)
				eb.LineStyle.Width = vg.Points(2)
				eb.CapWidth = vg.Points(14)
				p.Add(eb)
			}
		}
		m, _ := plotter.NewScatter(mid)
		m.GlyphStyle.Color = chart.Color(i)
		m.GlyphStyle.Radius = vg.Points(5)
		m.GlyphStyle.Shape = draw.CircleGlyph{}
		p.Add(m)
	}
	p.NominalX(names...)
	p.X.Min, p.X.Max = -0.6, float64(len(names))-0.4
	return p, any
}

// nines maps a percentile to its position on a "nines" axis.
func nines(pct float64) float64 { return -math.Log10(1 - pct/100) }

// latencyChart plots, per variant, the median over trials of each latency
// percentile (p50 .. p99.9) on a nines axis.
func latencyChart(run *lab.Run, v *stats.Verdicts, sc string) (*plot.Plot, bool) {
	names := append([]string{v.Baseline}, v.Variants...)
	p := chart.New(sc+": latency distribution", "percentile", "latency (ms)")
	p.Legend.Left = true
	pcts := []struct {
		pct   float64
		label string
		of    func(lab.Percentiles) float64
	}{
		{50, "p50", func(q lab.Percentiles) float64 { return q.P50 }},
		{90, "p90", func(q lab.Percentiles) float64 { return q.P90 }},
		{95, "p95", func(q lab.Percentiles) float64 { return q.P95 }},
		{99, "p99", func(q lab.Percentiles) float64 { return q.P99 }},
		{99.9, "p99.9", func(q lab.Percentiles) float64 { return q.P999 }},
	}
	var ticks []plot.Tick
	for _, q := range pcts {
		ticks = append(ticks, plot.Tick{Value: nines(q.pct), Label: q.label})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	any := false
	for i, name := range names {
		trials := stats.TrialsOf(run, name, sc)
		var xy plotter.XYs
		for _, q := range pcts {
			var vals []float64
			for _, t := range trials {
				if t.Error == "" && t.Load.Requests > 0 {
					vals = append(vals, q.of(t.Load.LatencyMs))
				}
			}
			if len(vals) > 0 {
				xy = append(xy, plotter.XY{X: nines(q.pct), Y: stats.Median(vals)})
			}
		}
		if len(xy) == 0 {
			continue
		}
		any = true
		l, pts, err := plotter.NewLinePoints(xy)
		if err != nil {
			continue
		}
		l.Color, pts.Color = chart.Color(i), chart.Color(i)
		l.Width = vg.Points(1.5)
		p.Add(l, pts)
		p.Legend.Add(name, l, pts)
	}
	p.Y.Min = 0
	return p, any
}

// usageChart plots a telemetry series over the whole run, each trial as a
// line coloured by its variant: what the service did, as it happened.
func usageChart(run *lab.Run, names []string, title, unit string, of func(lab.Trial) []lab.UsageSample, val func(lab.UsageSample) float64) (*plot.Plot, bool) {
	p := chart.New(title, "minutes since the run started", unit)
	idx := map[string]int{}
	for i, n := range names {
		idx[n] = i
	}
	legend := map[string]bool{}
	any := false
	top := 0.0
	for _, t := range run.Trials {
		ss := of(t)
		if len(ss) == 0 {
			continue
		}
		any = true
		off := t.Start.Sub(run.Started).Minutes()
		xy := make(plotter.XYs, len(ss))
		for j, s := range ss {
			xy[j] = plotter.XY{X: off + s.T/60, Y: val(s)}
			top = math.Max(top, xy[j].Y)
		}
		l, err := plotter.NewLine(xy)
		if err != nil {
			continue
		}
		l.Color = chart.Color(idx[t.Variant])
		l.Width = vg.Points(1.2)
		p.Add(l)
		if !legend[t.Variant] {
			legend[t.Variant] = true
			p.Legend.Add(t.Variant, l)
		}
	}
	p.Y.Min = 0
	p.Y.Max = 1.3 * top // room for the legend above the lines
	return p, any
}

// curveChart plots a search's steps: achieved rate vs p99 latency, one
// line per trial through its steps in order of asked rate, coloured by
// variant; failed steps as crosses.
func curveChart(run *lab.Run, names []string, sc string) (*plot.Plot, bool) {
	p := chart.New(sc+": rate vs p99 latency (search)", "achieved rate (req/s)", "p99 latency (ms)")
	p.Legend.Left = true
	legend := map[string]bool{}
	any := false
	for i, name := range names {
		for _, t := range stats.TrialsOf(run, name, sc) {
			if len(t.Curve) == 0 {
				continue
			}
			any = true
			var xy, bad plotter.XYs
			steps := slices.Clone(t.Curve) // by asked rate: a curve, not the bisection's path
			slices.SortFunc(steps, func(a, b lab.CurvePoint) int { return cmp.Compare(a.AskedRate, b.AskedRate) })
			for _, c := range steps {
				xy = append(xy, plotter.XY{X: c.Rate, Y: c.P99Ms})
				if !c.OK {
					bad = append(bad, plotter.XY{X: c.Rate, Y: c.P99Ms})
				}
			}
			l, pts, err := plotter.NewLinePoints(xy)
			if err != nil {
				continue
			}
			l.Color, pts.Color = chart.Color(i), chart.Color(i)
			pts.Radius = vg.Points(2)
			p.Add(l, pts)
			if len(bad) > 0 {
				b, _ := plotter.NewScatter(bad)
				b.Shape, b.Color, b.Radius = draw.CrossGlyph{}, color.RGBA{0xc0, 0, 0, 0xff}, vg.Points(4)
				p.Add(b)
			}
			if !legend[name] {
				legend[name] = true
				p.Legend.Add(name, l)
			}
		}
	}
	p.Y.Min = 0
	return p, any
}

// Charts renders the charts of a run: per scenario throughput, latency
// distribution and (for searches) rate vs latency; then server CPU,
// database CPU and server RSS over the run.
func Charts(run *lab.Run, v *stats.Verdicts) (perScenario map[string][]chart.Chart, timeline []chart.Chart, err error) {
	names := append([]string{v.Baseline}, v.Variants...)
	if v.Baseline == "" {
		names = stats.VariantNames(run)
	}
	perScenario = map[string][]chart.Chart{}
	add := func(list *[]chart.Chart, p *plot.Plot, ok bool, w, h vg.Length, caption string) {
		if !ok || err != nil {
			return
		}
		svg, rerr := chart.Render(p, w, h)
		if rerr != nil {
			err = rerr
			return
		}
		*list = append(*list, chart.Chart{Title: p.Title.Text, Caption: caption, SVG: svg})
	}
	for _, sc := range stats.ScenarioNames(run) {
		list := perScenario[sc]
		p, ok := trialsChart(run, v, sc)
		add(&list, p, ok, 5*vg.Inch, 3.4*vg.Inch, "Grey dots: trials. Coloured: median with its 95% confidence interval.")
		p, ok = latencyChart(run, v, sc)
		add(&list, p, ok, 5*vg.Inch, 3.4*vg.Inch, "Median over trials of each percentile, on a nines axis.")
		p, ok = curveChart(run, names, sc)
		add(&list, p, ok, 5*vg.Inch, 3.4*vg.Inch, "Each search step: achieved rate and p99; red crosses broke the limit.")
		p, ok = phaseChart(Phases(run, v, sc), sc)
		add(&list, p, ok, 5*vg.Inch, 3.4*vg.Inch, "Server-Timing: the median over trials of each phase's mean, stacked; see the table for what moved.")
		perScenario[sc] = list
	}
	server := func(t lab.Trial) []lab.UsageSample { return t.Server.Samples }
	db := func(t lab.Trial) []lab.UsageSample { return t.Database.Samples }
	cpu := func(s lab.UsageSample) float64 { return s.CPU }
	rss := func(s lab.UsageSample) float64 { return float64(s.RSS) / 1e6 }
	p, ok := usageChart(run, names, "PostgREST CPU over the run", "cores busy", server, cpu)
	add(&timeline, p, ok, 10*vg.Inch, 3*vg.Inch, "The measured part of each trial at its place in the run, coloured by variant (warm-ups and restarts fall in the gaps).")
	p, ok = usageChart(run, names, "PostgreSQL CPU over the run", "cores busy", db, cpu)
	add(&timeline, p, ok, 10*vg.Inch, 3*vg.Inch, "")
	p, ok = usageChart(run, names, "PostgREST RSS over the run", "MB", server, rss)
	add(&timeline, p, ok, 10*vg.Inch, 3*vg.Inch, "")
	return perScenario, timeline, err
}
