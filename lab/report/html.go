package report

import (
	"fmt"
	"html/template"
	"io"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report/chart"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
	"github.com/pgrst-lab/pgrst-lab/lab/report/profile"
	"github.com/pgrst-lab/pgrst-lab/lab/report/sweep"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// htmlCell is one value cell of a results table.
type htmlCell struct {
	Value, Delta, P, MDE, Class string
}

type htmlRow struct {
	Metric string
	Base   string
	Cells  []htmlCell
}

type htmlScenario struct {
	Name     string
	Baseline string
	// Tables split the variants so that a table fits a page.
	Tables   []htmlTable
	Warnings []string
	// Noise are the noise warnings behind the cells' marks, folded.
	Noise  []string
	Charts []chart.Chart
	Phases *PhaseTable
}

// htmlTable is a results table of some of the variants.
type htmlTable struct {
	Variants []string
	Rows     []htmlRow
}

type htmlData struct {
	Title, Description string
	Reference          bool
	Compares           bool // two variants or more: the verdicts show
	Interrupted        string
	Headlines          []htmlHeadline
	PrimaryLabel       string
	NoiseLegend        string
	Method             string
	Setup              [][2]string
	Variants           []htmlVariant
	Scenarios          []htmlScenario
	K6                 []htmlK6
	Limits             []LimitCells
	LimitsIntro        string
	LimitsSustained    bool
	RatioTo            string
	SaturationIntro    string
	LimitsCharts       []chart.Chart
	LimitsCommand      string
	Memory             []MemorySection
	MemoryIntro        string
	LimitsWhat         string
	Timeline           []chart.Chart
	Trials             []chart.Chart // trials on one time axis (timeline_chart.go)
	TrialsIntro        string
	Growth             []GrowthRow
	GrowthIntro        string
	Events             []string
	Sweep              template.HTML // sweep: the recommendation, tables and curves
	Profile            template.HTML // profile = true: CPU profile, GHC runtime, SQL
	Endpoints          []EndpointRow
	EndpointsNote      string
	EndpointsReach     []string // comparisons whose lines no verdict could reach
}

// htmlHeadline is a row of the verdict table.
type htmlHeadline struct {
	Scenario, Variant, Delta, P, MDE, Notes, Class string
}

type htmlVariant struct {
	Name, Description string
	Baseline          bool
	Changes           []string
}

// HTML writes report.html: a self-contained page (inline CSS and SVG, no
// scripts, no external URLs) with the verdicts, tables and charts.
func HTML(w io.Writer, run *lab.Run, v *stats.Verdicts) error {
	perScenario, timeline, err := Charts(run, v)
	if err != nil {
		return err
	}
	d := htmlData{
		Title: run.Experiment.Title, Description: run.Experiment.Description, Reference: run.Target.Reference, Compares: compares(run),
		Interrupted: run.Interrupted, Timeline: timeline, K6: htmlK6Tables(K6Rows(run)), Limits: LimitsCells(run), LimitsIntro: limitsIntro(run),
		Method: fmt.Sprintf("Medians of %s trials per variant and scenario, ± the half-width of the %.0f%% confidence interval; "+
			"delta is the change against the baseline that the test estimates (the median per-round change where paired, the change of the medians otherwise), \"~\" when the test finds no significant difference. Test: %s.",
			trialCounts(run), 100*v.Confidence, v.Method()),
	}
	if d.Title == "" {
		d.Title = run.Experiment.Name
	}
	d.LimitsCommand, d.LimitsWhat = limitsReproduce(run)
	d.LimitsSustained, d.SaturationIntro, d.RatioTo = run.Experiment.Load.Limit.Sustained(), saturationIntro(), stats.RatioTo(run)
	d.Memory, d.MemoryIntro = MemorySections(run), memoryIntro
	if d.LimitsCharts, err = limitsCharts(run); err != nil {
		return err
	}
	if d.Trials, err = timelineCharts(run); err != nil {
		return err
	}
	d.TrialsIntro = timelineIntro
	d.Growth, d.GrowthIntro = GrowthRows(run), growthIntro
	d.PrimaryLabel = primaryLabel(v)
	if d.Endpoints = EndpointRows(v); len(d.Endpoints) > 0 {
		d.EndpointsNote, d.EndpointsReach = endpointsNote(v), endpointsOutOfReach(v)
	}
	for _, h := range v.Headlines() {
		d.PrimaryLabel = primaryLabel(v) + " vs " + h.BaselineName
		hh := htmlHeadline{Scenario: h.Scenario, Variant: h.VariantName, Delta: h.Delta(), P: h.PString(), MDE: h.MDEString(), Class: string(h.Outcome)}
		if h.Outcome == stats.Better || h.Outcome == stats.Worse {
			hh.Delta += " " + string(h.Outcome)
		}
		if anyNoisy([]stats.Row{h}) {
			hh.Delta += noiseMark
			d.NoiseLegend = noiseLegend()
		}
		var notes []string
		if n := unmeasured(h); n != "" {
			notes = append(notes, n)
		}
		if n := h.SpeedNote(); n != "" {
			notes = append(notes, n)
		}
		if n := len(otherWarnings(v.For(h.Scenario, h.VariantName))); n > 0 {
			notes = append(notes, fmt.Sprintf("%d warning(s)", n))
		}
		hh.Notes = strings.Join(notes, "; ")
		d.Headlines = append(d.Headlines, hh)
	}
	d.Setup = [][2]string{
		{"Experiment", run.Experiment.Name + sourceOf(run, plain)},
		{"Target", TargetRowDesc(run)},
		{"Supervisor", run.Target.Supervisor + unitOf(run.Target, "")},
		{"Machine", HostDesc(run.Host)},
		{"PostgreSQL", run.Host.PostgreSQL},
		{"Data", datasetDesc(run)},
		{"Load", LoadDesc(run.Experiment.Load)},
		{"Trials", fmt.Sprintf("%s per variant and scenario, %s order", trialCounts(run), orderOf(run))},
		{"Run", fmt.Sprintf("%s, took %s", run.Started.UTC().Format("2006-01-02 15:04 MST"), format.Elapsed(run.Finished.Sub(run.Started)))},
	}
	for _, l := range scenarioLines(run, plain, plain) {
		d.Setup = append(d.Setup, [2]string{"Asked", l})
	}
	d.Setup = append(d.Setup, [][2]string{
		{"Partition", partitionDesc(run.Experiment)},
		{"Capacity", capacityDesc(run)},
		{"Interference", interferenceDesc(run)},
		{"Versions", fmt.Sprintf("lab %s, %s", run.Host.LabVersion, run.Host.GoVersion)},
		{"Binaries", binariesDesc(run, plain, plain)},
	}...)
	base := stats.BaselineName(run)
	for _, vi := range variantInfos(run) {
		hv := htmlVariant{Name: vi.Name, Description: vi.Description, Baseline: vi.Name == base}
		for _, c := range vi.Changes {
			hv.Changes = append(hv.Changes, fmt.Sprintf("%s %s: %s → %s", c.Where, c.Key, orNone(c.From), orNone(c.To)))
		}
		d.Variants = append(d.Variants, hv)
	}
	for _, sc := range v.Scenarios {
		hs := htmlScenarioOf(v, sc, perScenario[sc])
		if len(hs.Noise) > 0 {
			d.NoiseLegend = noiseLegend()
		}
		hs.Phases = Phases(run, v, sc)
		d.Scenarios = append(d.Scenarios, hs)
	}
	d.Events = eventLines(run)
	if d.Sweep, err = sweep.HTML(run, v); err != nil {
		return err
	}
	if d.Profile, err = profile.HTML(run); err != nil {
		return fmt.Errorf("html report: %w", err)
	}
	if err := format.ExecuteHTML(w, page, d); err != nil {
		return fmt.Errorf("html report: %w", err)
	}
	return nil
}

// htmlVariantsPerTable is how many variants a results table shows (with
// the metric and baseline columns it then fits a page).
const htmlVariantsPerTable = 2

func htmlScenarioOf(v *stats.Verdicts, sc string, charts []chart.Chart) htmlScenario {
	hs := htmlScenario{Name: sc, Baseline: v.Baseline, Charts: charts}
	var cols [][]stats.Row
	for _, name := range v.Variants {
		if rows := v.For(sc, name); len(rows) > 0 {
			cols = append(cols, rows)
		}
	}
	if len(cols) == 0 {
		return hs
	}
	hs.Baseline = cols[0][0].BaselineName
	var all []stats.Row
	for _, c := range cols {
		all = append(all, c...)
	}
	for start := 0; start < len(cols); start += htmlVariantsPerTable {
		hs.Tables = append(hs.Tables, htmlTableOf(cols[start:min(start+htmlVariantsPerTable, len(cols))]))
	}
	hs.Warnings = otherWarnings(all)
	for _, r := range all {
		hs.Noise = append(hs.Noise, r.Noise...)
	}
	hs.Noise = distinct(hs.Noise)
	return hs
}

// htmlTableOf is the results table of some variants (cols, one per variant).
func htmlTableOf(cols [][]stats.Row) htmlTable {
	var t htmlTable
	for _, c := range cols {
		t.Variants = append(t.Variants, c[0].VariantName)
	}
	for i, r0 := range cols[0] {
		hr := htmlRow{Metric: metricTitle(r0.Metric), Base: Cell(r0.Baseline)}
		for _, c := range cols {
			if i >= len(c) || c[i].Metric.Name != r0.Metric.Name {
				hr.Cells = append(hr.Cells, htmlCell{})
				continue
			}
			r := c[i]
			hr.Cells = append(hr.Cells, htmlCell{Value: Cell(r.Variant), Delta: r.Delta(), P: r.PString(), MDE: r.MDEString(), Class: string(r.Outcome)})
		}
		t.Rows = append(t.Rows, hr)
	}
	return t
}

// eventLines lists the run's events and failed trials, one line each.
func eventLines(run *lab.Run) []string {
	var out []string
	seen := map[string]bool{}
	add := func(e lab.Event, variant string, seq int) {
		s := fmt.Sprintf("%s %s (%s), variant %s, trial %d: %s", e.T.UTC().Format("15:04:05"), e.Kind, e.Source, variant, seq, e.Detail)
		if e.Rate > 0 {
			s += fmt.Sprintf(" at %s req/s", num(e.Rate))
		}
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, e := range run.Events {
		add(e, e.Variant, e.Trial)
	}
	for _, t := range run.Trials {
		for _, e := range t.Events {
			add(e, t.Variant, t.Seq)
		}
		if t.Error != "" {
			out = append(out, fmt.Sprintf("%s trial %d (%s, %s) failed and is left out: %s", t.Start.UTC().Format("15:04:05"), t.Seq, t.Variant, t.Scenario, t.Error))
		}
	}
	return out
}

// Style is the single-run report's CSS, shared by the matrix page (package report/matrix).
func Style() template.CSS {
	s := pageTemplate
	if i, j := strings.Index(s, "<style>"), strings.Index(s, "</style>"); i >= 0 && j > i {
		return template.CSS(s[i+len("<style>") : j]) // our own constant
	}
	return ""
}

// htmlK6 is one scenario's k6 table: a column per variant, a line per
// metric (the metric, then each variant's value).
type htmlK6 struct {
	Scenario string
	Variants []string
	Lines    [][]string
}

// htmlK6Tables groups rows (in scenario order) into one table per scenario.
func htmlK6Tables(rows []K6Row) []htmlK6 {
	var out []htmlK6
	for i, r := range rows {
		if i == 0 || rows[i-1].Scenario != r.Scenario {
			t := htmlK6{Scenario: r.Scenario}
			for _, m := range format.K6Metrics(r.Closed) {
				t.Lines = append(t.Lines, []string{m})
			}
			out = append(out, t)
		}
		t := &out[len(out)-1]
		t.Variants = append(t.Variants, r.Variant)
		for j, v := range r.K6Values(format.Bytes) {
			t.Lines[j] = append(t.Lines[j], v)
		}
	}
	return out
}

var page = template.Must(template.New("report").Funcs(template.FuncMap{
	"join": strings.Join, "num": num, "bytes": format.Bytes, "ms": msCell,
	"k6note": func() string { return format.K6Intro + " " + format.K6Note },
}).Parse(pageTemplate))

const pageTemplate = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
body { font-family: "Liberation Sans", Arial, Helvetica, sans-serif; color: #222; max-width: 1100px; margin: 2em auto; padding: 0 1em; line-height: 1.45; }
h1 { margin-bottom: .2em; } h2 { border-bottom: 1px solid #ddd; padding-bottom: .2em; margin-top: 2em; }
.note { background: #fff4e0; border-left: 4px solid #f28e2b; padding: .6em 1em; margin: 1em 0; }
.bad { background: #fdecec; border-left-color: #e15759; }
table { border-collapse: collapse; margin: 1em 0; font-size: 14px; display: block; max-width: 100%; overflow-x: auto; width: max-content; }
th, td { border: 1px solid #ddd; padding: 4px 8px; text-align: right; white-space: nowrap; }
th { background: #f4f6f8; } td.l, th.l { text-align: left; white-space: normal; }
td.better { background: #e6f4e6; color: #1d6b1d; font-weight: bold; }
td.worse { background: #fbe5e5; color: #a02020; font-weight: bold; }
td.changed { background: #fff4d6; font-weight: bold; }
li.better::marker { content: "▲ "; color: #1d6b1d; } li.worse::marker { content: "▼ "; color: #a02020; }
.p { color: #777; font-size: 12px; }
.warn { color: #8a4b00; } .muted { color: #666; font-size: 13px; }
.charts { display: flex; flex-wrap: wrap; gap: 1em; }
figure { margin: 0; } figcaption { color: #666; font-size: 13px; max-width: 480px; }
svg.chart { max-width: 100%; height: auto; }
svg.chart text { font-family: "Liberation Sans", Arial, Helvetica, sans-serif !important; }
code { background: #f4f6f8; padding: 1px 4px; border-radius: 3px; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
{{with .Description}}<p>{{.}}</p>{{end}}
{{if .Reference}}<p class="note"><b>Measured on the reference server (postgrest-mini), not PostgREST.</b> The figures show the lab's method and the machine, not PostgREST's performance.</p>{{end}}
{{with .Interrupted}}<p class="note bad"><b>Interrupted run:</b> {{.}}. The tables hold what was measured until then.</p>{{end}}

{{with .Limits}}<h2>Limits</h2>
<p class="muted">{{$.LimitsIntro}}</p>
<table><tr><th class="l">variant</th><th class="l">scenario</th><th>req/s</th><th>interval</th><th>http_reqs</th><th>duration avg ms</th><th>p50 ms</th><th>p95 ms</th><th>p99 ms</th><th>data_received</th><th>data_sent</th><th>peak in flight</th><th>failed</th><th>server µs/req</th><th>db µs/req</th><th>peak RSS</th><th>per 1M req</th><th>vs {{$.RatioTo}}</th><th>2020</th><th class="l">trials</th></tr>
{{range .}}<tr><td class="l"><code>{{.Variant}}</code></td><td class="l">{{.Scenario}}</td><td>{{.Rate}}</td><td>{{.Spread}}</td><td>{{.Count}}</td><td>{{.Avg}}</td><td>{{.P50}}</td><td>{{.P95}}</td><td>{{.P99}}</td><td>{{.Received}}</td><td>{{.Sent}}</td><td>{{.Conns}}</td><td>{{.Failed}}</td><td>{{.ServerUs}}</td><td>{{.DBUs}}</td><td>{{.PeakRSS}}</td><td>{{or .PerMillion "–"}}</td><td>{{.Ratio}}</td><td>{{.Ratio2020}}</td><td class="l">{{.Trials}}</td></tr>
{{end}}</table>
{{if $.LimitsSustained}}<p class="muted">{{$.SaturationIntro}}</p>
<table><tr><th class="l">variant</th><th class="l">scenario</th><th>limit req/s</th><th>closed-loop best</th><th>limit ÷ closed</th><th>at 50 % (p50 / p95 / p99 ms)</th><th>at 80 %</th><th>at the limit</th><th>server cores</th><th>cores' bound req/s</th></tr>
{{range .}}{{if .Sustained}}<tr><td class="l"><code>{{.Variant}}</code></td><td class="l">{{.Scenario}}</td><td>{{.Rate}}</td><td>{{.Closed}}</td><td>{{.OfClosed}}</td><td>{{.AtHalf}}</td><td>{{.AtFour}}</td><td>{{.AtHold}}</td><td>{{.Cores}}</td><td>{{.Bound}}</td></tr>
{{end}}{{end}}</table>{{end}}
<p class="muted">Reproduce with <code>{{$.LimitsCommand}}</code> on the same stack ({{$.LimitsWhat}}).</p>
<div class="charts">{{range $.LimitsCharts}}<figure>{{.SVG}}{{with .Caption}}<figcaption>{{.}}</figcaption>{{end}}</figure>{{end}}</div>{{end}}

{{with .Memory}}<h2>Memory</h2>
<p class="muted">{{$.MemoryIntro}}</p>
{{range .}}<p>{{.Floor}}</p>
<table><tr><th class="l">MemoryMax</th><th>trials</th><th>OOM kills</th><th>other failures</th><th>cgroup peak</th><th>peak RSS</th><th>first byte P50</th><th>last byte P50</th><th>back after</th></tr>
{{range .Rows}}<tr><td class="l">{{.Limit}}</td><td>{{.Trials}}</td><td>{{.OOMKills}}</td><td>{{.Failed}}</td><td>{{.PeakCgroup}}</td><td>{{.PeakRSS}}</td><td>{{.FirstByte}}</td><td>{{.LastByte}}</td><td>{{.Recovery}}</td></tr>
{{end}}</table>{{end}}{{end}}

{{with .Growth}}<h2>Memory growth</h2>
<p class="muted">{{$.GrowthIntro}}</p>
<table><tr><th class="l">variant</th><th class="l">scenario</th><th>trial</th><th>span</th><th>RSS first</th><th>RSS last</th><th>growth</th><th class="l">95 % interval</th><th>live heap after major GCs</th><th>live heap growth</th><th class="l">95 % interval</th></tr>
{{range .}}<tr><td class="l"><code>{{.Variant}}</code></td><td class="l">{{.Scenario}}</td><td>{{.Trial}}</td><td>{{.Span}}</td><td>{{.First}}</td><td>{{.Last}}</td><td>{{.PerHour}}</td><td class="l">{{.Interval}}</td><td>{{.LiveHeap}}</td><td>{{.Live}}</td><td class="l">{{.LiveInterval}}</td></tr>
{{end}}</table>{{end}}

{{with .Trials}}<h2>Timeline</h2>
<p class="muted">{{$.TrialsIntro}}</p>
{{range .}}<figure>{{.SVG}}{{with .Caption}}<figcaption>{{.}}</figcaption>{{end}}</figure>{{end}}{{end}}

{{if .Endpoints}}<h2>Verdict per endpoint</h2>
<table class="endpoints"><tr><th class="l">endpoint</th><th>line</th><th class="l">scenario</th><th class="l">variant</th><th>share</th>{{range (index .Endpoints 0).Quantiles}}<th>{{.Name}}</th>{{end}}</tr>
{{range .Endpoints}}<tr><td class="l"><code>{{.Name}}</code></td><td>{{.Line}}</td><td class="l">{{.Scenario}}</td><td class="l">{{.Variant}}</td><td>{{.Share}}</td>{{range .Quantiles}}<td class="{{.Class}}">{{.Values}}<br><span class="p">{{.Verdict}}</span></td>{{end}}</tr>
{{end}}</table>
{{range .EndpointsReach}}<p class="warn">Out of reach: {{.}}.</p>{{end}}
<p class="muted">{{.EndpointsNote}}</p>{{end}}

{{if .Compares}}<h2>Verdict</h2>
{{if .Headlines}}<table class="verdict"><tr><th class="l">scenario</th><th class="l">variant</th><th>{{.PrimaryLabel}}</th><th>p</th><th>mde</th><th class="l">notes</th></tr>
{{range .Headlines}}<tr><td class="l">{{.Scenario}}</td><td class="l">{{.Variant}}</td><td class="{{.Class}}">{{.Delta}}</td><td>{{.P}}</td><td>{{.MDE}}</td><td class="l warn">{{.Notes}}</td></tr>
{{end}}</table>{{else}}<p>Nothing to compare (one variant, or no valid trials).</p>{{end}}
{{with .NoiseLegend}}<p class="muted">{{.}}.</p>{{end}}
<p class="muted">{{.Method}}</p>{{end}}
{{.Sweep}}

<h2>Setup</h2>
<table>{{range .Setup}}{{if index . 1}}<tr><th class="l">{{index . 0}}</th><td class="l">{{index . 1}}</td></tr>{{end}}{{end}}</table>

<h2>Variants</h2>
<table><tr><th class="l">variant</th><th class="l">description</th><th class="l">changes</th></tr>
{{range .Variants}}<tr><td class="l"><code>{{.Name}}</code>{{if .Baseline}} (baseline){{end}}</td><td class="l">{{.Description}}</td><td class="l">{{range .Changes}}<code>{{.}}</code><br>{{else}}none{{end}}</td></tr>
{{end}}</table>

<h2>Results</h2>
{{range .Scenarios}}
<h3>{{.Name}}</h3>
{{$base := .Baseline}}{{range .Tables}}<table>
<tr><th class="l">metric</th><th>{{$base}} (baseline)</th>{{range .Variants}}<th>{{.}}</th><th>delta</th>{{end}}</tr>
{{range .Rows}}<tr><td class="l">{{.Metric}}</td><td>{{.Base}}</td>{{range .Cells}}<td>{{.Value}}</td><td class="{{.Class}}">{{.Delta}}<br><span class="p">{{.P}}{{with .MDE}} · mde {{.}}{{end}}</span></td>{{end}}</tr>
{{end}}</table>{{else}}{{if $.Compares}}<p>No comparison.</p>{{end}}{{end}}
{{with .Warnings}}{{if gt (len .) 5}}<details><summary class="warn">{{len .}} warnings</summary>{{end}}<ul class="warn">{{range .}}<li>{{.}}</li>{{end}}</ul>{{if gt (len .) 5}}</details>{{end}}{{end}}
{{with .Noise}}<details class="noise"><summary class="muted">{{len .}} noisy medians (marked !)</summary><ul class="muted">{{range .}}<li>{{.}}</li>{{end}}</ul></details>{{end}}
{{with .Phases}}<p>Where the server's time goes (Server-Timing, ms per request, median over trials of the mean):</p>
<table class="phases"><tr><th class="l">variant</th>{{range .Phases}}<th>{{.}}</th>{{end}}<th>sum</th><th class="l">phases that moved</th></tr>
{{range .Rows}}<tr><td class="l">{{.Variant}}{{if .Baseline}} (baseline){{end}}</td>{{range .Ms}}<td>{{ms .}}</td>{{end}}<td>{{ms .TotalMs}}</td><td class="l">{{.Moved}}</td></tr>
{{end}}</table><p class="muted">{{.Clock}}</p>{{end}}
<div class="charts">{{range .Charts}}<figure>{{.SVG}}{{with .Caption}}<figcaption>{{.}}</figcaption>{{end}}</figure>{{end}}</div>
{{end}}

{{with .K6}}<h2>k6-style summary</h2>
<p class="muted">{{k6note}}</p>
{{range .}}<h3>{{.Scenario}}</h3>
<table><tr><th class="l">metric</th>{{range .Variants}}<th>{{.}}</th>{{end}}</tr>
{{range .Lines}}<tr>{{range $i, $c := .}}<td{{if eq $i 0}} class="l"{{end}}>{{$c}}</td>{{end}}</tr>
{{end}}</table>{{end}}{{end}}

{{with .Timeline}}<h2>Resources over the run</h2>
{{range .}}<figure>{{.SVG}}{{with .Caption}}<figcaption>{{.}}</figcaption>{{end}}</figure>{{end}}{{end}}

{{.Profile}}
{{with .Events}}<h2>Events</h2><ul class="warn">{{range .}}<li>{{.}}</li>{{end}}</ul>{{end}}
<p class="muted">Generated by pgrst-lab from run.json.</p>
</body>
</html>
`
