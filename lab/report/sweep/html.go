package sweep

import (
	"bytes"
	"fmt"
	"html/template"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report/chart"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// section is the data of the HTML section.
type section struct {
	Title     string
	Note      string
	Header    []string
	Scenarios []scenario
}

type scenario struct {
	Name           string
	Recommendation string
	CannotTell     bool
	Rows           []row
	Charts         []chart.Chart
	// Pool is a db-pool sweep's pool sizing: its note, header and rows.
	Pool *poolSection
}

type poolSection struct {
	Note   string
	Header []string
	Rows   [][]string
}

// HTML is the sweep's section of report.html ("" without a sweep), in the
// page's classes (note, bad, muted, charts).
func HTML(run *lab.Run, v *stats.Verdicts) (template.HTML, error) {
	sw := v.Sweep
	if sw == nil {
		return "", nil
	}
	s := section{Title: "Sweep: " + strings.Join(sw.Keys, " × "), Note: note(sw)}
	for _, sc := range sw.Scenarios {
		header, rows := table(run, sw, sc)
		s.Header = header
		cs, err := charts(run, sw, sc)
		if err != nil {
			return "", err
		}
		x := scenario{Name: sc.Scenario, Recommendation: sc.Recommendation.Sentence,
			CannotTell: sc.Recommendation.CannotTell, Rows: rows, Charts: cs}
		if ps := sc.Pool; ps != nil {
			h, r := poolTable(ps)
			x.Pool = &poolSection{Note: poolNote(ps), Header: h, Rows: r}
		}
		s.Scenarios = append(s.Scenarios, x)
	}
	var b bytes.Buffer
	if err := page.Execute(&b, s); err != nil {
		return "", fmt.Errorf("sweep section: %w", err)
	}
	return template.HTML(b.String()), nil // #nosec: escaped by html/template
}

var page = template.Must(template.New("sweep").Parse(`<h2>{{.Title}}</h2>
<p class="muted">{{.Note}}</p>
{{range .Scenarios}}<h3>{{.Name}}</h3>
<p class="note{{if .CannotTell}} bad{{end}}"><b>Recommendation:</b> {{.Recommendation}}.</p>
<table><tr>{{range $.Header}}<th>{{.}}</th>{{end}}<th></th></tr>
{{range .Rows}}<tr>{{range .Cells}}<td>{{.}}</td>{{end}}<td class="l">{{if .Recommended}}▶ recommended{{end}}{{if .Best}} ★ best{{end}}</td></tr>
{{end}}</table>
{{with .Pool}}<p class="note"><b>{{.Note}}.</b></p>
<table><tr>{{range .Header}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
{{end}}<div class="charts">{{range .Charts}}<figure>{{.SVG}}{{with .Caption}}<figcaption>{{.}}</figcaption>{{end}}</figure>{{end}}</div>
{{end}}`))
