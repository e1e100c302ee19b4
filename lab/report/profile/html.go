package profile

import (
	"bytes"
	"html/template"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/profiles"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
)

type htmlData struct {
	Report
	Flames  map[string]template.HTML
	Flagged []profiles.SQLChange
}

// HTML is the profile sections of report.html; "" without profiles.
// The flame graphs are inline SVG (every text in them is escaped by
// FlameSVG), so the page stays self-contained.
func HTML(run *lab.Run) (template.HTML, error) {
	r := Of(run)
	if r.Empty() {
		return "", nil
	}
	d := htmlData{Report: r, Flames: map[string]template.HTML{}, Flagged: flaggedSQL(r.SQLChanges)}
	for _, v := range r.variants {
		d.Flames[v.Name] = template.HTML(FlameSVG(v.Stacks, flameTitle(v))) // #nosec: escaped by FlameSVG
	}
	var b bytes.Buffer
	if err := page.Execute(&b, d); err != nil {
		return "", err
	}
	return template.HTML(b.String()), nil
}

var page = template.Must(template.New("profile").Funcs(template.FuncMap{
	"pct": pct, "num": func(v float64) string { return format.Num(v, 3) }, "bytes": format.Bytes, "clip": format.Clip,
	"bytesi": func(n int64) string { return format.Bytes(float64(n)) },
}).Parse(pageTemplate))

const pageTemplate = `<style>
svg.flame { max-width: 100%; height: auto; border: 1px solid #ddd; }
svg.flame text { pointer-events: none; fill: #222; }
td.q { text-align: left; white-space: normal; font-family: monospace; font-size: 12px; max-width: 640px; word-break: break-word; }
.cols { display: flex; flex-wrap: wrap; gap: 1.5em; }
</style>
{{with .Variants}}<h2 id="cpu-profile">CPU profile</h2>
<p class="muted"><code>perf record -e cpu-clock -g</code> of the target and PostgreSQL over every trial's measured window. Self: the function was running; total: it was on the stack (GHC code keeps no frame pointers: its call chains are not reliable, its self shares are). Hover a frame of a flame graph for its samples. Files: flame-*.svg, profile-*.pb.gz (<code>go tool pprof</code>), profile.json.</p>
{{range .}}<h3>{{.Variant}}: {{.Samples}} samples in {{.Trials}} trial(s)</h3>
<p class="muted">perf itself used {{num .PerfCPUPerTrial}} s of CPU per trial, {{pct .PerfShare}} of the target's and PostgreSQL's CPU.</p>
<figure>{{index $.Flames .Variant}}</figure>
<div class="cols">
<table><tr><th class="l">function (by self)</th><th class="l">service</th><th>self</th><th>total</th></tr>
{{range .BySelf}}<tr><td class="q">{{.Name}}</td><td class="l">{{.Service}}</td><td>{{pct .SelfShare}}</td><td>{{pct .TotalShare}}</td></tr>
{{end}}</table>
<table><tr><th class="l">function (by total)</th><th class="l">service</th><th>total</th><th>self</th></tr>
{{range .ByTotal}}<tr><td class="q">{{.Name}}</td><td class="l">{{.Service}}</td><td>{{pct .TotalShare}}</td><td>{{pct .SelfShare}}</td></tr>
{{end}}</table>
{{with .Modules}}<table><tr><th class="l">Haskell module</th><th class="l">service</th><th>self</th></tr>
{{range .}}<tr><td class="q">{{.Module}}</td><td class="l">{{.Service}}</td><td>{{pct .SelfShare}}</td></tr>
{{end}}</table>{{end}}
</div>
{{range .Unnamed}}<p class="note">Not in the tables: <code>{{.Frame}}</code> ({{.Service}}), {{pct .SelfShare}} self, {{pct .TotalShare}} total: {{.Note}}</p>
{{end}}{{end}}{{end}}
{{range .FuncChanges}}<h3>Functions whose share changed most: {{.Variant}} vs {{.Baseline}}</h3>
<table><tr><th class="l">function</th><th class="l">service</th><th>self {{.Baseline}}</th><th>self {{.Variant}}</th><th>Δ self</th><th>total {{.Baseline}}</th><th>total {{.Variant}}</th><th>Δ total</th></tr>
{{range .Changes}}<tr><td class="q">{{.Name}}</td><td class="l">{{.Service}}</td><td>{{pct .BaseSelf}}</td><td>{{pct .VarSelf}}</td><td class="{{if gt .SelfDelta 0.0}}worse{{else if lt .SelfDelta 0.0}}better{{end}}">{{printf "%+.1f" .SelfDelta}} pp</td><td>{{pct .BaseTotal}}</td><td>{{pct .VarTotal}}</td><td>{{printf "%+.1f" .TotalDelta}} pp</td></tr>
{{end}}</table>{{end}}
{{if or .GHC .GHCNote}}<h2 id="ghc-runtime">GHC runtime</h2>
{{with .GHCNote}}<p class="note">{{.}}</p>{{end}}
{{with .GHC}}<p class="muted">From <code>+RTS -S</code>: only the lines written during the measured windows. The verdicts on these are the GHC rows of the results.</p>
<table><tr><th class="l">variant</th><th>allocated per request</th><th>GC share of CPU</th><th>heap after a GC, max</th><th>major GCs (gen 1)</th><th>GCs</th></tr>
{{range .}}<tr><td class="l">{{.Variant}}</td><td>{{bytes .AllocPerRequest}}</td><td>{{pct .GCShare}}</td><td>{{bytesi .MaxLiveBytes}}</td><td>{{.MajorGCs}}</td><td>{{.GCs}}</td></tr>
{{end}}</table>{{end}}{{end}}
{{with .SQL}}<h2 id="sql">SQL per variant</h2>
<p class="muted">Statements sent during the measured windows (pg_stat_statements, all users of the database), per HTTP request.</p>
{{if $.Flagged}}<p class="note bad"><b>Differences against the baseline</b></p>
<table><tr><th class="l">scenario</th><th class="l">variant</th><th class="l">change</th><th class="l">statement</th><th>baseline calls/req</th><th>variant calls/req</th></tr>
{{range $.Flagged}}<tr><td class="l">{{.Scenario}}</td><td class="l">{{.Variant}}</td><td class="l worse">{{.Kind}}</td><td class="q">{{clip .Query 300}}</td><td>{{num .Base}}</td><td>{{num .Var}}</td></tr>
{{end}}</table>{{else if $.SQLChanges}}<p>No statement appears in one variant only, and no statement's calls per request changed.</p>{{end}}
{{range .}}<h3>{{.Scenario}}, {{.Variant}}: {{num .CallsPerRequest}} statements per request</h3>
<table><tr><th class="l">statement</th><th>calls/req</th><th>mean ms</th><th>calls</th></tr>
{{range .Statements}}<tr><td class="q">{{clip .Query 300}}</td><td>{{num .PerRequest}}</td><td>{{num .MeanMs}}</td><td>{{.Calls}}</td></tr>
{{end}}</table>{{end}}{{end}}
`
