package matrix

import (
	"fmt"
	"html/template"
	"io"

	"github.com/pgrst-lab/pgrst-lab/lab/report"
	"github.com/pgrst-lab/pgrst-lab/lab/report/chart"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
)

type matrixHTMLHost struct {
	Label, State, URL, Machine, Target, Link string
	Failed                                   bool
	Verdicts                                 []string
	Charts                                   []matrixHTMLCharts
}

type matrixHTMLCharts struct {
	Scenario string
	Charts   []chart.Chart
}

type matrixHTMLData struct {
	Title, Schedule, Reference string
	Hosts                      []matrixHTMLHost
	Labels                     []string
	Scenarios                  []Scenario
	Costs                      []CostRow
}

// HTML writes matrix.html: a self-contained page with the hosts, the
// side-by-side and cross-host tables, and each host's verdicts and charts.
// Links to the hosts' own reports are relative to dir.
func HTML(w io.Writer, m *Matrix, dir string) error {
	d := matrixHTMLData{Title: fmt.Sprintf("Matrix: %s on %d hosts", m.title(), len(m.Hosts)), Schedule: m.scheduleLine(),
		Reference: m.referenceLine(), Scenarios: m.Table(), Costs: m.Costs()}
	for _, h := range m.Hosts {
		hh := matrixHTMLHost{Label: h.Label, State: hostState(h), URL: h.URL, Failed: h.Error != ""}
		d.Labels = append(d.Labels, h.Label)
		if h.Dir != "" {
			hh.Link = relLink(dir, h.Dir, "report.html")
		}
		if h.Run != nil {
			hh.Machine, hh.Target = report.HostDesc(h.Run.Host), report.TargetDesc(h.Run.Target)
		}
		if h.Run != nil && h.Verdicts != nil {
			hh.Verdicts = report.Headlines(h.Verdicts)
			per, _, err := report.Charts(h.Run, h.Verdicts)
			if err != nil {
				return err
			}
			for _, sc := range h.Verdicts.Scenarios {
				if len(per[sc]) > 0 {
					hh.Charts = append(hh.Charts, matrixHTMLCharts{Scenario: sc, Charts: per[sc]})
				}
			}
		}
		d.Hosts = append(d.Hosts, hh)
	}
	if err := format.ExecuteHTML(w, matrixPage, d); err != nil {
		return fmt.Errorf("matrix html: %w", err)
	}
	return nil
}

var matrixPage = template.Must(template.New("matrix").Funcs(template.FuncMap{
	"val": valueStr, "ratio": ratioTest, "ptitle": pTitle, "side": sideBySide, "style": report.Style,
}).Parse(matrixTemplate))

const matrixTemplate = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>{{style}}</style>
</head>
<body>
<h1>{{.Title}}</h1>
<p>{{.Schedule}}</p>

<h2>Hosts</h2>
<table><tr><th class="l">host</th><th class="l">state</th><th class="l">agent</th><th class="l">machine</th><th class="l">target</th><th class="l">report</th></tr>
{{range .Hosts}}<tr><td class="l"><b>{{.Label}}</b></td><td class="l{{if .Failed}} worse{{end}}">{{.State}}</td><td class="l"><code>{{.URL}}</code></td><td class="l">{{.Machine}}</td><td class="l">{{.Target}}</td><td class="l">{{with .Link}}<a href="{{.}}">report.html</a>{{end}}</td></tr>
{{end}}</table>

<h2>Hosts side by side</h2>
<p class="muted">Median throughput (req/s) / p99 latency (ms) per scenario and variant.</p>
<table><tr><th class="l">scenario</th><th class="l">variant</th>{{range .Labels}}<th>{{.}}</th>{{end}}</tr>
{{range $sc := .Scenarios}}{{range .Rows}}<tr><td class="l">{{$sc.Name}}</td><td class="l"><code>{{.Variant}}</code></td>{{range .Cells}}<td>{{side .}}</td>{{end}}</tr>
{{end}}{{end}}</table>

<h2>Across hosts, per scenario</h2>
<p class="muted">{{.Reference}}</p>
{{range .Scenarios}}<h3>{{.Name}}</h3>
<table class="matrix"><tr><th class="l">variant</th><th class="l">host</th><th>req/s</th><th>×</th><th>p99 ms</th><th>×</th><th>CPU µs/req</th><th>×</th><th>trials</th></tr>
{{range $r := .Rows}}{{range .Cells}}<tr><td class="l"><code>{{$r.Variant}}</code></td><td class="l">{{.Host}}</td><td>{{val .Rate}}</td><td{{with ptitle .RateTest}} title="{{.}}"{{end}}>{{ratio .RateRatio .RateTest}}</td><td>{{val .P99}}</td><td{{with ptitle .P99Test}} title="{{.}}"{{end}}>{{ratio .P99Ratio .P99Test}}</td><td>{{val .CPU}}</td><td{{with ptitle .CPUTest}} title="{{.}}"{{end}}>{{ratio .CPURatio .CPUTest}}</td><td>{{.Trials}}</td></tr>
{{end}}{{end}}</table>
{{end}}

{{with .Costs}}<h2>Cost per million requests: scale out or up?</h2>
<table><tr><th class="l">scenario</th><th class="l">host</th><th>CPUs</th><th>req/s</th><th>per hour</th><th>per 1M req</th></tr>
{{range $r := .}}{{range .Cells}}<tr><td class="l">{{$r.Scenario}}</td><td class="l">{{.Host}}</td><td>{{.CPUs}}</td><td>{{val .Rate}}</td><td>{{val .PerHour}}</td><td>{{val .PerMillion}}</td></tr>
{{end}}{{end}}</table>
<ul>{{range .}}<li><b>{{.Scenario}}</b>: {{.Answer}}</li>{{end}}</ul>{{end}}

<h2>Each host</h2>
{{range .Hosts}}<h3>{{.Label}}</h3>
<ul>{{range .Verdicts}}<li>{{.}}</li>{{end}}{{if .Failed}}<li class="worse">{{.State}}</li>{{end}}</ul>
{{range .Charts}}<h4>{{.Scenario}}</h4>
<div class="charts">{{range .Charts}}<figure>{{.SVG}}{{with .Caption}}<figcaption>{{.}}</figcaption>{{end}}</figure>{{end}}</div>
{{end}}{{end}}
<p class="muted">Generated by pgrst-lab from the hosts' run.json.</p>
</body>
</html>
`

// pTitle is a tested cell's p-value, shown when hovering its ratio.
func pTitle(t *Test) string {
	if t == nil {
		return ""
	}
	return fmt.Sprintf("Mann-Whitney U p=%.3f", t.P)
}
