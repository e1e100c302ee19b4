package report

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report/chart"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// timelineCharts draws each chosen trial (stats.Timelines) as panels on
// one time axis: answers per second, latency, the target's RSS; the
// events as vertical lines across every panel (dashed where one ended).
func timelineCharts(run *lab.Run) ([]chart.Chart, error) {
	var out []chart.Chart
	for _, tl := range stats.Timelines(run) {
		title := fmt.Sprintf("Trial %d: %s, %s", tl.Trial, tl.Variant, tl.Scenario)
		panels := []*plot.Plot{timelinePanel(tl, title, "answers/s", []timelineLine{
			{"ok", func(p stats.TimelinePoint) (float64, bool) { return float64(p.OK), true }},
			{"failed", func(p stats.TimelinePoint) (float64, bool) { return float64(p.Errors), true }},
			{"dropped", func(p stats.TimelinePoint) (float64, bool) { return float64(p.Dropped), p.Dropped > 0 }},
		})}
		if tl.HasLatency {
			panels = append(panels, timelinePanel(tl, "", "latency ms", []timelineLine{
				{"p50", func(p stats.TimelinePoint) (float64, bool) { return p.P50Ms, p.P99Ms > 0 }},
				{"p99", func(p stats.TimelinePoint) (float64, bool) { return p.P99Ms, p.P99Ms > 0 }},
				{"max", func(p stats.TimelinePoint) (float64, bool) { return p.MaxMs, p.MaxMs > 0 }},
			}))
		}
		if tl.HasRSS {
			panels = append(panels, timelinePanel(tl, "", "RSS MB", []timelineLine{
				{"target", func(p stats.TimelinePoint) (float64, bool) { return float64(p.RSS) / 1e6, p.RSS > 0 }},
			}))
		}
		for _, p := range panels[:len(panels)-1] {
			p.X.Tick.Label.Color = color.Transparent
		}
		panels[len(panels)-1].X.Label.Text = "seconds of the measured part"
		svg, err := chart.RenderStack(title, panels, 9*vg.Inch, 2.1*vg.Inch)
		if err != nil {
			return nil, err
		}
		out = append(out, chart.Chart{Title: title, SVG: svg, Caption: timelineCaption(tl)})
	}
	return out, nil
}

type timelineLine struct {
	name string
	of   func(stats.TimelinePoint) (float64, bool)
}

func timelinePanel(tl stats.Timeline, title, y string, lines []timelineLine) *plot.Plot {
	p := chart.New(title, "", y)
	p.Legend.Left = true
	top := 0.0
	for i, l := range lines {
		var xy plotter.XYs
		for _, pt := range tl.Points {
			if v, ok := l.of(pt); ok {
				xy = append(xy, plotter.XY{X: pt.T + 0.5, Y: v}) // the middle of its second
				top = max(top, v)
			}
		}
		if len(xy) == 0 {
			continue
		}
		ln, err := plotter.NewLine(xy)
		if err != nil {
			continue
		}
		ln.Color, ln.Width = chart.Color(i), vg.Points(1.2)
		p.Add(ln)
		p.Legend.Add(l.name, ln)
	}
	p.Y.Min, p.Y.Max = 0, 1.25*max(top, 1)
	p.X.Min = 0
	if n := len(tl.Points); n > 0 {
		p.X.Max = tl.Points[n-1].T + 1
	}
	for _, e := range tl.Events {
		mark(p, e.T, p.Y.Max, eventColor(e.Kind), false)
		if e.Seconds > 0 {
			mark(p, e.T+e.Seconds, p.Y.Max, eventColor(e.Kind), true)
		}
	}
	return p
}

func mark(p *plot.Plot, x, top float64, c color.Color, dashed bool) {
	l, err := plotter.NewLine(plotter.XYs{{X: x, Y: 0}, {X: x, Y: top}})
	if err != nil {
		return
	}
	l.Color, l.Width = c, vg.Points(1)
	if dashed {
		l.Dashes = []vg.Length{vg.Points(3), vg.Points(3)}
	}
	p.Add(l)
}

// eventColor: the lab's actions grey, the target's schema cache loads
// green, anything that ended a process red.
func eventColor(k lab.EventKind) color.Color {
	switch k {
	case lab.EventAction:
		return color.Gray{0x55}
	case lab.EventSchemaCache:
		return chart.Color(4)
	}
	return chart.Color(2)
}

func timelineCaption(tl stats.Timeline) string {
	s := "Vertical lines: grey the lab's actions (dashed where one ended), green the target's schema cache loads, red restarts, crashes and OOM kills."
	if len(tl.Stalls) > 0 {
		s += " Stalls: " + stallLine(tl.Stalls[0])
		if len(tl.Stalls) > 1 {
			s += fmt.Sprintf(" and %d more (see report.md)", len(tl.Stalls)-1)
		}
		s += "."
	}
	return s
}
