package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/calibrate"
	"github.com/pgrst-lab/pgrst-lab/lab/report/chart"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
)

// CalibrationTable writes the power curve as a plain-text table.
func CalibrationTable(w io.Writer, res *calibrate.Result) {
	if res.Sizing != nil {
		fmt.Fprintf(w, "%s\n", res.Sizing)
	}
	fmt.Fprintf(w, "%s%-8s %-10s %-6s %-22s %-10s %-8s %-8s %s\n", designHead(res), "effect", "injected", "runs", "declared a difference", "measured", "mde", "rounds", "minutes")
	for _, r := range res.Rows {
		fmt.Fprintf(w, "%s%-8s %-10s %-6s %-22s %-10s %-8s %-8s %s\n", designCell(res, r), effectName(r), injected(r), runsOf(r), rateOf(r),
			pctOrQ(r.MeanPct, "%+.1f%%"), pctOrQ(r.MeanMDE, "±%.1f%%"), pctOrQ(r.MeanRnds, "%.1f"), pctOrQ(r.MeanTook, "%.1f"))
	}
	if ds := calibrate.Designs(res.Rows); ds != nil {
		fmt.Fprintln(w)
		for _, d := range ds {
			fmt.Fprintln(w, d)
		}
		fmt.Fprintln(w, designVerdict(ds))
	}
}

// compared reports whether the calibration compared designs.
func compared(res *calibrate.Result) bool {
	for _, r := range res.Rows {
		if r.Design != "" {
			return true
		}
	}
	return false
}

func designHead(res *calibrate.Result) string {
	if compared(res) {
		return fmt.Sprintf("%-12s", "design")
	}
	return ""
}

func designCell(res *calibrate.Result, r calibrate.Row) string {
	if compared(res) {
		return fmt.Sprintf("%-12s", r.Design)
	}
	return ""
}

// designVerdict says which design is the more sensitive per minute.
func designVerdict(ds []calibrate.DesignRow) string {
	best, factor, ok := calibrate.Best(ds)
	switch {
	case !ok:
		return "No design has an A/A run with a verdict: nothing to compare."
	case math.IsNaN(factor):
		return fmt.Sprintf("Only %s has a figure.", best.Design)
	}
	return fmt.Sprintf("More sensitive per minute: %s (the other needs %.1fx the minutes for the same MDE).", best.Design, factor)
}

func effectName(r calibrate.Row) string {
	if r.EffectPct == 0 {
		return "A/A"
	}
	return fmt.Sprintf("%g%%", r.EffectPct)
}

func injected(r calibrate.Row) string {
	if r.InjectUs == 0 {
		return "none"
	}
	if r.InjectUsMin > 0 {
		return fmt.Sprintf("%d–%d µs", r.InjectUsMin, r.InjectUs)
	}
	return fmt.Sprintf("%d µs", r.InjectUs)
}

func runsOf(r calibrate.Row) string {
	if r.Failed > 0 {
		return fmt.Sprintf("%d (+%d failed)", r.Runs, r.Failed)
	}
	return fmt.Sprint(r.Runs)
}

func rateOf(r calibrate.Row) string {
	if r.Runs == 0 {
		return "?"
	}
	return fmt.Sprintf("%d/%d = %.0f%% [%.0f..%.0f]", r.Hits, r.Runs, 100*r.Rate, 100*r.RateLo, 100*r.RateHi)
}

func pctOrQ(f float64, format string) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "?"
	}
	return fmt.Sprintf(format, f)
}

// CalibrationMarkdown writes calibration.md.
func CalibrationMarkdown(w io.Writer, res *calibrate.Result) error {
	b := newBuf(w)
	fmt.Fprintf(b, "# Calibration of %s\n\n", res.Experiment)
	if res.Stopped != "" {
		fmt.Fprintf(b, "> **Stopped early:** %s. The table holds the runs finished until then.\n\n", format.MdEscape(res.Stopped))
	}
	fmt.Fprintf(b, "%s\n\n", format.Wrap(calibrationIntro(res), 100))
	fmt.Fprintf(b, "| | |\n|---|---|\n")
	for _, kv := range calibrationSetup(res) {
		fmt.Fprintf(b, "| %s | %s |\n", kv[0], format.MdEscape(kv[1]))
	}
	design, rule := "", ""
	if compared(res) {
		design, rule = " design |", "---|"
	}
	fmt.Fprintf(b, "\n|%s effect | injected | runs | declared a difference | measured change | mean MDE | mean rounds | mean minutes |\n", design)
	fmt.Fprintf(b, "|%s---|---:|---:|---|---:|---:|---:|---:|\n", rule)
	for _, r := range res.Rows {
		cell := ""
		if design != "" {
			cell = " " + string(r.Design) + " |"
		}
		fmt.Fprintf(b, "|%s %s | %s | %s | %s | %s | %s | %s | %s |\n", cell, effectName(r), injected(r), runsOf(r), rateOf(r),
			pctOrQ(r.MeanPct, "%+.1f%%"), pctOrQ(r.MeanMDE, "±%.1f%%"), pctOrQ(r.MeanRnds, "%.1f"), pctOrQ(r.MeanTook, "%.1f"))
	}
	if ds := calibrate.Designs(res.Rows); ds != nil {
		fmt.Fprintf(b, "\n## Designs per minute\n\nFrom the A/A runs: an MDE falls as the square root of the rounds, so a design's MDE in one minute "+
			"(mean MDE × √mean minutes) and the minutes it needs for ±1 %% (mean minutes × mean MDE²) compare designs whose rounds take different times.\n\n")
		fmt.Fprintf(b, "| design | A/A runs | mean MDE | mean minutes | MDE in one minute | minutes for ±1 %% |\n|---|---:|---:|---:|---:|---:|\n")
		for _, d := range ds {
			fmt.Fprintf(b, "| %s | %d | %s | %s | %s | %s |\n", d.Design, d.Runs, pctOrQ(d.MeanMDE, "±%.1f%%"), pctOrQ(d.MeanTook, "%.1f"),
				pctOrQ(d.MDEMinute, "±%.1f%%"), pctOrQ(d.MinutesFor1, "%.1f"))
		}
		fmt.Fprintf(b, "\n%s\n", designVerdict(ds))
	}
	fmt.Fprintln(b)
	return b.Flush()
}

// trialsDesc is the design's rounds and order, or the orders compared.
func trialsDesc(res *calibrate.Result) string {
	if !compared(res) {
		return fmt.Sprintf("min %d, max %d per variant, %s order", res.Trials.Min, res.Trials.Max, res.Trials.Order)
	}
	var names []string
	for _, d := range calibrate.Designs(res.Rows) {
		names = append(names, string(d.Design))
	}
	return fmt.Sprintf("min %d, max %d per variant; designs compared, alternately: %s", res.Trials.Min, res.Trials.Max, strings.Join(names, ", "))
}

func calibrationSetup(res *calibrate.Result) [][2]string {
	setup := [][2]string{
		{"Target", targetDesc(res.Target)},
		{"Machine", hostDesc(res.Host)},
		{"Load", loadDesc(res.Load)},
		{"Trials", trialsDesc(res)},
		{"Test", res.Design},
		{"Runs", calibrationRuns(res)},
		{"Injection", sizingDesc(res)},
		{"When", fmt.Sprintf("%s, took %s", res.Started.UTC().Format("2006-01-02 15:04 MST"), durationStr(res.Finished.Sub(res.Started)))},
	}
	if len(res.Sources) == 0 {
		return setup
	}
	setup[1][0] = "Machine (first part)"
	setup[5][1] = fmt.Sprintf("%s, pooled from %d calibrations", calibrate.PlanText(res.AARuns, res.Effects), len(res.Sources))
	setup[6][1] = "sized in each part by its own baseline and probe: an effect is a share of that part's headline metric"
	setup[7] = [2]string{"When", fmt.Sprintf("%s to %s", res.Started.UTC().Format("2006-01-02 15:04 MST"), res.Finished.UTC().Format("2006-01-02 15:04 MST"))}
	for i, src := range res.Sources {
		setup = append(setup, [2]string{fmt.Sprintf("Part %d", i+1), sourceDesc(src)})
	}
	return setup
}

// sourceDesc is one pooled calibration: when, where, and how it sized.
func sourceDesc(s calibrate.Source) string {
	d := fmt.Sprintf("%s: %d runs, took %s; baseline %.0f req/s on %d CPUs", s.Started.UTC().Format("2006-01-02 15:04 MST"),
		s.Runs, durationStr(s.Finished.Sub(s.Started)), s.Rate, s.CPUs)
	if s.Scale > 0 {
		d += fmt.Sprintf(", injections x%.2f by its probe", s.Scale)
	}
	if s.Stopped != "" {
		d += "; stopped early: " + s.Stopped
	}
	return d + " (" + s.Dir + ")"
}

// calibrationIntro says what the table counts, for the design that ran.
func calibrationIntro(res *calibrate.Result) string {
	sized := "sized to slow a CPU-bound run down by the effect"
	if res.Baseline.Efficiency {
		sized = "sized to raise the primary metric (server + database CPU per request) by the effect"
	}
	return "How often the design declares a difference: in A/A runs (the baseline against itself: a false positive) " +
		"and in A/A' runs where every request of A' carries injected CPU work " + sized +
		` (a detection, when the verdict is "worse"). Rates with 95% Wilson intervals. "Measured" is the mean change ` +
		"the runs saw, which can differ from the injected effect: the rest of the system answers the added work."
}

// calibrationRuns says the plan and the baseline that sized the injection.
func calibrationRuns(res *calibrate.Result) string {
	s := fmt.Sprintf("%s, interleaved; baseline %.0f req/s on %d CPUs", calibrate.PlanText(res.AARuns, res.Effects), res.Baseline.Rate, res.Baseline.CPUs)
	if res.Baseline.Efficiency {
		s += fmt.Sprintf(", %.0f µs server + database CPU per request", res.Baseline.CPUPerReq)
	}
	switch res.Injection {
	case calibrate.InjectDatabase:
		s += fmt.Sprintf("; injected in PostgreSQL by a pre-request function (%.4f µs a loop iteration; A calls one that does not spin)", res.BurnUsPerIteration)
	case calibrate.InjectServer:
		s += "; injected in postgrest-mini's handler (PGRST_LAB_INJECT_CPU_US)"
	}
	return s
}

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

// CalibrationHTML writes calibration.html: the table and the power chart.
func CalibrationHTML(w io.Writer, res *calibrate.Result) error {
	power, err := PowerChart(res)
	if err != nil {
		return err
	}
	return calibrationPage.Execute(w, struct {
		Res   *calibrate.Result
		Intro string
		Setup [][2]string
		Chart chart.Chart
		Rows  [][]string
	}{res, calibrationIntro(res), calibrationSetup(res), power, calibrationRows(res)})
}

func calibrationRows(res *calibrate.Result) [][]string {
	var out [][]string
	for _, r := range res.Rows {
		name := effectName(r)
		if r.Design != "" {
			name = string(r.Design) + " " + name
		}
		out = append(out, []string{name, injected(r), runsOf(r), rateOf(r),
			pctOrQ(r.MeanPct, "%+.1f%%"), pctOrQ(r.MeanMDE, "±%.1f%%"), pctOrQ(r.MeanRnds, "%.1f"), pctOrQ(r.MeanTook, "%.1f")})
	}
	return out
}

var calibrationPage = template.Must(template.New("calibration").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Calibration of {{.Res.Experiment}}</title>
<style>
body { font-family: "Liberation Sans", Arial, Helvetica, sans-serif; color: #222; max-width: 1000px; margin: 2em auto; padding: 0 1em; line-height: 1.45; }
table { border-collapse: collapse; margin: 1em 0; font-size: 14px; }
th, td { border: 1px solid #ddd; padding: 4px 8px; text-align: right; white-space: nowrap; }
th { background: #f4f6f8; } td.l, th.l { text-align: left; white-space: normal; }
.note { background: #fdecec; border-left: 4px solid #e15759; padding: .6em 1em; }
svg.chart { max-width: 100%; height: auto; } figcaption { color: #666; font-size: 13px; }
</style></head><body>
<h1>Calibration of {{.Res.Experiment}}</h1>
{{with .Res.Stopped}}<p class="note"><b>Stopped early:</b> {{.}}. The table holds the runs finished until then.</p>{{end}}
<p>{{.Intro}}</p>
<table>{{range .Setup}}<tr><th class="l">{{index . 0}}</th><td class="l">{{index . 1}}</td></tr>{{end}}</table>
<table><tr><th class="l">effect</th><th>injected</th><th>runs</th><th class="l">declared a difference</th><th>measured change</th><th>mean MDE</th><th>mean rounds</th><th>mean minutes</th></tr>
{{range .Rows}}<tr>{{range $i, $c := .}}<td{{if or (eq $i 0) (eq $i 3)}} class="l"{{end}}>{{$c}}</td>{{end}}</tr>
{{end}}</table>
{{with .Chart.SVG}}<figure>{{.}}<figcaption>{{$.Chart.Caption}}</figcaption></figure>{{end}}
<p style="color:#666;font-size:13px">Generated by pgrst-lab (lab calibrate).</p>
</body></html>
`))

// WriteCalibration writes calibration.json, calibration.md and
// calibration.html to dir.
func WriteCalibration(dir string, res *calibrate.Result) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("calibration report: %w", err)
	}
	b, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return fmt.Errorf("calibration report: %w", err)
	}
	if err := format.WriteFile(filepath.Join(dir, calibrate.File), b); err != nil {
		return err
	}
	var md, page bytes.Buffer
	if err := CalibrationMarkdown(&md, res); err != nil {
		return err
	}
	if err := CalibrationHTML(&page, res); err != nil {
		return fmt.Errorf("calibration report: %w", err)
	}
	if err := format.WriteFile(filepath.Join(dir, "calibration.md"), md.Bytes()); err != nil {
		return err
	}
	return format.WriteFile(filepath.Join(dir, "calibration.html"), page.Bytes())
}

// sizingDesc says how the injections were sized: by the model, or
// corrected by a probe run (with what it realised).
func sizingDesc(res *calibrate.Result) string {
	if res.Sizing == nil {
		return "sized by the model of the load (no probe run)"
	}
	return res.Sizing.String() + "; the measured change column gives what each effect realised"
}
