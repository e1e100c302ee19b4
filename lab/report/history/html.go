package history

import (
	"fmt"
	"html/template"
	"io"
	"math"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/internal/textsafe"
	"github.com/pgrst-lab/pgrst-lab/lab/history"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// ReportFile is the report a point links to in a run's results directory
// (report.WriteAll's HTML report).
const ReportFile = "report.html"

// ReportLink is the link from a page in pageDir to a run's report: Ref
// itself when it is an http(s) URL of a page, Ref + "/report.html" for
// the URL of a directory, and for a results directory a relative path
// (absolute when pageDir is "" or on another volume). Other schemes are
// refused ("").
func ReportLink(ref, pageDir string) string {
	if ref == "" {
		return ""
	}
	if u, err := url.Parse(ref); err == nil && u.Scheme != "" && len(u.Scheme) > 1 {
		if u.Scheme != "http" && u.Scheme != "https" {
			return ""
		}
		if !strings.HasSuffix(u.Path, ".html") {
			u.Path = strings.TrimSuffix(u.Path, "/") + "/" + ReportFile
		}
		return u.String()
	}
	file := filepath.Join(ref, ReportFile)
	if pageDir != "" {
		if absRef, err := filepath.Abs(file); err == nil {
			if absPage, err := filepath.Abs(pageDir); err == nil {
				if rel, err := filepath.Rel(absPage, absRef); err == nil {
					return escapePath(filepath.ToSlash(rel))
				}
			}
		}
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return ""
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

// escapePath escapes each segment of a relative path; a first segment
// with a colon is prefixed with "./", so that it cannot read as a scheme.
func escapePath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	out := strings.Join(segs, "/")
	if strings.Contains(segs[0], ":") {
		out = "./" + out
	}
	return out
}

// HTMLOptions say where the page goes.
type HTMLOptions struct {
	// PageDir is the directory the page is written to: links to results
	// directories are relative to it.
	PageDir string
}

// chart geometry (SVG user units).
const (
	chartW, chartH             = 960.0, 330.0
	padL, padR, padT, padB     = 104.0, 24.0, 56.0, 84.0 // padL: room for the first rotated x label
	plotW, plotH               = chartW - padL - padR, chartH - padT - padB
	regressionColor            = "#d62728"
	improvementColor           = "#2ca02c"
	belowMDEColor, changeColor = "#8c8c8c", "#9467bd"
)

// palette is Tableau 10, as the run reports use.
var palette = []string{"#4e79a7", "#f28e2b", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac", "#e15759"}

type svgPoint struct {
	X, Y, Lo, Hi string
	Link, Tip    string
}

type svgLine struct {
	Name, Color, Path, Band string
	Points                  []svgPoint
}

type svgMark struct {
	X, Y1, Y2, LabelY, Label, Color, Dash, Anchor string
}

type svgTick struct{ X, Y, Label string }

type htmlChart struct {
	Title, Unit                    string
	W, H                           string
	Lines                          []svgLine
	Marks                          []svgMark
	YTicks                         []svgTick
	XTicks                         []svgTick
	PlotX0, PlotX1, PlotY0, PlotY1 string
	Changes                        []string
}

type htmlGroup struct {
	Title  string
	Charts []htmlChart
}

type htmlData struct {
	Experiment, Order, Method string
	Runs                      int
	Warnings                  []string
	Groups                    []htmlGroup
	Apart                     []string
	Legend                    template.HTML
}

// HTML writes the trend page: per group, one chart per scenario and
// metric, x the runs in order, one line per variant with its 95 % CI
// band, change points marked with their size and range; each point links
// to its run's report. Self-contained: inline CSS and SVG, no scripts, no
// external URLs; every string from a run is escaped by html/template.
func HTML(w io.Writer, h *history.History, o HTMLOptions) error {
	d := htmlData{Experiment: textsafe.CleanText(h.Experiment), Order: h.OrderDesc(), Method: h.Method(), Runs: h.Runs}
	for _, warn := range h.Warnings {
		d.Warnings = append(d.Warnings, textsafe.CleanText(warn))
	}
	for gi := range h.Groups {
		g := &h.Groups[gi]
		hg := htmlGroup{Title: g.Title()}
		type key struct{ sc, metric string }
		var keys []key
		bykey := map[key][]*history.Series{}
		for i := range g.Series {
			s := &g.Series[i]
			k := key{s.Scenario, s.Metric.Name}
			if _, ok := bykey[k]; !ok {
				keys = append(keys, k)
			}
			bykey[k] = append(bykey[k], s)
		}
		for _, k := range keys {
			hg.Charts = append(hg.Charts, chartOf(h, g, bykey[k], o))
		}
		d.Groups = append(d.Groups, hg)
	}
	for _, e := range h.Apart {
		c := e.Commit
		if c == "" {
			c = "no commit"
		}
		d.Apart = append(d.Apart, fmt.Sprintf("%s (%s, %s)", textsafe.CleanText(e.ID), textsafe.CleanText(history.ShortCommit(c)), e.Started.UTC().Format("2006-01-02 15:04")))
	}
	return format.ExecuteHTML(w, pageTmpl, d)
}

func f1(x float64) string { return fmt.Sprintf("%.1f", x) }

// chartOf draws one scenario × metric of a group: a line per variant.
func chartOf(h *history.History, g *history.Group, ss []*history.Series, o HTMLOptions) htmlChart {
	m := ss[0].Metric
	c := htmlChart{Title: textsafe.CleanText(ss[0].Scenario) + ": " + m.Label, Unit: m.Unit, W: f1(chartW), H: f1(chartH),
		PlotX0: f1(padL), PlotX1: f1(padL + plotW), PlotY0: f1(padT), PlotY1: f1(padT + plotH)}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range ss {
		for _, p := range s.Points {
			lo, hi = math.Min(lo, p.Median), math.Max(hi, p.Median)
			if !math.IsInf(p.Lo, 0) && !math.IsInf(p.Hi, 0) {
				lo, hi = math.Min(lo, p.Lo), math.Max(hi, p.Hi)
			}
		}
	}
	if hi <= lo {
		lo, hi = lo*0.95-1e-9, hi*1.05+1e-9
	}
	ticks := niceTicks(lo, hi, 5)
	lo, hi = math.Min(lo, ticks[0]), math.Max(hi, ticks[len(ticks)-1])
	n := len(g.Runs)
	xOf := func(pos int) float64 {
		if n == 1 {
			return padL + plotW/2
		}
		return padL + plotW*float64(pos)/float64(n-1)
	}
	yOf := func(v float64) float64 { return padT + plotH*(1-(v-lo)/(hi-lo)) }
	for _, t := range ticks {
		c.YTicks = append(c.YTicks, svgTick{Y: f1(yOf(t)), Label: history.Num(t)})
	}
	step := max(1, int(math.Ceil(float64(n)/24)))
	for i := 0; i < n; i += step {
		c.XTicks = append(c.XTicks, svgTick{X: f1(xOf(i)), Y: f1(padT + plotH + 12), Label: format.Clip(textsafe.CleanText(g.Runs[i].Label(h.By)), 16)})
	}
	for li, s := range ss {
		ln := svgLine{Name: textsafe.CleanText(s.Variant), Color: palette[li%len(palette)]}
		var line, upper, lower []string
		for _, p := range s.Points {
			x, y := xOf(p.Pos), yOf(p.Median)
			line = append(line, f1(x)+","+f1(y))
			pl, ph := p.Median, p.Median
			if !math.IsInf(p.Lo, 0) && !math.IsInf(p.Hi, 0) {
				pl, ph = p.Lo, p.Hi
			}
			upper = append(upper, f1(x)+","+f1(yOf(ph)))
			lower = append([]string{f1(x) + "," + f1(yOf(pl))}, lower...)
			tip := fmt.Sprintf("#%d %s: %s %s %s, MDE %s", p.I+1, textsafe.CleanText(p.ID), history.Num(p.Median), m.Unit, spread(p.SpreadPct()), mdeStr(p.MDEPct))
			if p.Commit != "" {
				tip += ", commit " + textsafe.CleanText(history.ShortCommit(p.Commit))
			}
			if p.Version != "" {
				tip += ", " + textsafe.CleanText(format.Clip(p.Version, 40))
			}
			ln.Points = append(ln.Points, svgPoint{X: f1(x), Y: f1(y), Link: ReportLink(p.Ref, o.PageDir), Tip: tip})
		}
		ln.Path = "M" + strings.Join(line, " L")
		if len(upper) > 1 {
			ln.Band = "M" + strings.Join(append(upper, lower...), " L") + " Z"
		}
		c.Lines = append(c.Lines, ln)
		for ci, ch := range s.Changes {
			color := changeColor
			switch {
			case !ch.ExceedsMDE:
				color = belowMDEColor
			case ch.Outcome == stats.Worse:
				color = regressionColor
			case ch.Outcome == stats.Better:
				color = improvementColor
			}
			x := (xOf(ch.Before.Pos) + xOf(ch.After.Pos)) / 2
			label := fmt.Sprintf("%+.1f %% (%s..%s)", ch.Pct, textsafe.CleanText(ch.Before.Label(h.By)), textsafe.CleanText(ch.After.Label(h.By)))
			if ch.Ack != nil {
				label += " ✓ acknowledged"
			}
			anchor := "middle"
			switch {
			case x < padL+plotW*0.2:
				anchor = "start"
			case x > padL+plotW*0.8:
				anchor = "end"
			}
			mk := svgMark{X: f1(x), Y1: f1(padT - 4), Y2: f1(padT + plotH), LabelY: f1(padT - 10 - 14*float64((li+ci)%3)),
				Label: label, Color: color, Anchor: anchor}
			if !ch.ExceedsMDE {
				mk.Dash = "5,4"
			}
			c.Marks = append(c.Marks, mk)
			c.Changes = append(c.Changes, fmt.Sprintf("%s: %s at #%d, between %s and %s, p %s: %s; id %s%s", textsafe.CleanText(s.Variant),
				pctCI(ch.Pct, ch.LoPct, ch.HiPct), ch.Index+1, ch.Before.Describe(h.By), ch.After.Describe(h.By), pStr(ch.P), ch.Verdict(), ch.ID, ch.AckNote()))
		}
	}
	return c
}

// niceTicks are about n round values covering lo..hi.
func niceTicks(lo, hi float64, n int) []float64 {
	span := hi - lo
	raw := span / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, f := range []float64{1, 2, 2.5, 5, 10} {
		if f*mag >= raw {
			step = f * mag
			break
		}
	}
	var out []float64
	for v := math.Floor(lo/step) * step; v <= hi+step*0.5 && len(out) < 3*n; v += step {
		out = append(out, v)
	}
	return out
}

var pageTmpl = template.Must(template.New("history").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>History of {{.Experiment}}</title>
<style>
body{font-family:"Liberation Sans",Arial,sans-serif;max-width:1000px;margin:1.5em auto;padding:0 1em;color:#222;background:#fff}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ddd}h3{font-size:1em;margin-bottom:.2em}
.method{color:#555;font-size:.9em}.warn{color:#8a4b00}
svg.trend{width:100%;height:auto;display:block}
svg.trend text{font-family:"Liberation Sans",Arial,sans-serif;font-size:11px;fill:#333}
svg.trend .grid{stroke:#e4e4e4}svg.trend .axis{stroke:#888}
ul.changes{font-size:.9em;margin-top:.2em}
.legend span{display:inline-block;margin-right:1em;font-size:.9em}
.legend i{display:inline-block;width:1.2em;height:.6em;margin-right:.3em;vertical-align:middle}
</style></head><body>
<h1>History of {{.Experiment}}</h1>
<p>{{.Runs}} run(s), ordered {{.Order}}.</p>
<p class="method">{{.Method}} Change markers: red a regression, green an improvement, grey dashed smaller than the runs' MDE. Each point links to its run's report.</p>
{{range .Warnings}}<p class="warn">Warning: {{.}}</p>
{{end}}{{range .Groups}}<h2>{{.Title}}</h2>
{{range .Charts}}<h3>{{.Title}} ({{.Unit}})</h3>
<p class="legend">{{range .Lines}}<span><i style="background:{{.Color}}"></i>{{.Name}}</span>{{end}}</p>
<svg class="trend" role="img" aria-label="{{.Title}}" viewBox="0 0 {{.W}} {{.H}}" xmlns="http://www.w3.org/2000/svg">
<rect x="0" y="0" width="{{.W}}" height="{{.H}}" fill="#fff"/>
{{$c := .}}{{range .YTicks}}<line class="grid" x1="{{$c.PlotX0}}" x2="{{$c.PlotX1}}" y1="{{.Y}}" y2="{{.Y}}"/><text x="{{$c.PlotX0}}" dx="-6" y="{{.Y}}" dy="4" text-anchor="end">{{.Label}}</text>
{{end}}<line class="axis" x1="{{.PlotX0}}" x2="{{.PlotX0}}" y1="{{.PlotY0}}" y2="{{.PlotY1}}"/><line class="axis" x1="{{.PlotX0}}" x2="{{.PlotX1}}" y1="{{.PlotY1}}" y2="{{.PlotY1}}"/>
{{range .XTicks}}<text transform="translate({{.X}},{{.Y}}) rotate(-40)" text-anchor="end">{{.Label}}</text>
{{end}}{{range .Lines}}{{if .Band}}<path d="{{.Band}}" fill="{{.Color}}" fill-opacity="0.22" stroke="none"/>{{end}}
<path d="{{.Path}}" fill="none" stroke="{{.Color}}" stroke-width="2"/>
{{$l := .}}{{range .Points}}{{if .Link}}<a href="{{.Link}}">{{end}}<circle cx="{{.X}}" cy="{{.Y}}" r="4" fill="{{$l.Color}}"><title>{{.Tip}}</title></circle>{{if .Link}}</a>{{end}}
{{end}}{{end}}{{range .Marks}}<line x1="{{.X}}" x2="{{.X}}" y1="{{.Y1}}" y2="{{.Y2}}" stroke="{{.Color}}" stroke-width="3"{{if .Dash}} stroke-dasharray="{{.Dash}}"{{end}}/>
<text x="{{.X}}" y="{{.LabelY}}" text-anchor="{{.Anchor}}" style="fill:{{.Color}};font-weight:bold">{{.Label}}</text>
{{end}}</svg>
{{if .Changes}}<ul class="changes">{{range .Changes}}<li>{{.}}</li>{{end}}</ul>{{else}}<p class="method">No change point.</p>{{end}}
{{end}}{{end}}{{if .Apart}}<h2>Apart</h2><p>Runs of a commit the repository does not have:</p><ul>{{range .Apart}}<li>{{.}}</li>{{end}}</ul>{{end}}
</body></html>
`))
