package report_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	gmhtml "github.com/yuin/goldmark/renderer/html"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/calibrate"
	"github.com/pgrst-lab/pgrst-lab/lab/history"
	"github.com/pgrst-lab/pgrst-lab/lab/history/historytest"
	"github.com/pgrst-lab/pgrst-lab/lab/record"
	"github.com/pgrst-lab/pgrst-lab/lab/report"
	"github.com/pgrst-lab/pgrst-lab/lab/report/calibration"
	historyreport "github.com/pgrst-lab/pgrst-lab/lab/report/history"
	"github.com/pgrst-lab/pgrst-lab/lab/report/load"
	"github.com/pgrst-lab/pgrst-lab/lab/report/matrix"
	"github.com/pgrst-lab/pgrst-lab/lab/report/post"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
	"github.com/pgrst-lab/pgrst-lab/lab/stats/statstest"
)

// evil is what a hostile run.json, an experiment file from an untrusted
// pull request (its name, title, description), a server (Server-Timing
// names) or a commit could put in any string: a backtick that ends a
// hand-written code span, raw HTML, Markdown links to javascript:, a
// table break, a line break that starts a line of its own, and terminal
// controls (ESC [2J clears the screen, C1 CSI as a byte and as a rune,
// BEL, an OSC that sets the window title).
const evil = "EVIL`x``<script>alert(1)</script>](javascript:alert(1)) [y](javascript:alert(2))|cell\nFORGED line\r\x1b[2J\x9b\u009b31m\x07\x1b]0;title\x07end"

// evilDir is evil as a directory name (no slash).
var evilDir = strings.ReplaceAll(evil, "/", "_")

// evilRun puts evil in every string of a run that a file, an agent, a
// server or git gives: the experiment's name, title, description and
// source, the variants' names, descriptions, changes and binaries, the
// scenarios' names, the host, target and agent, events, failed trials,
// Server-Timing phases, targets-file paths, profiles and SQL.
func evilRun() *lab.Run {
	run := profiledRun()
	statstest.AddEndpoints(run, map[string]float64{"unix": 2}, 0.02, "", 5)
	ph := phaseRun()
	for i := range run.Trials {
		run.Trials[i].Load.ServerTiming = ph.Trials[i].Load.ServerTiming
	}
	rename := map[string]string{"tcp": "tcp" + evil, "unix": "unix" + evil, "unix-nolog": "nolog" + evil}
	run.Experiment.Name, run.Experiment.Title, run.Experiment.Description = "exp"+evil, "title"+evil, "description"+evil
	run.Experiment.Source = "experiments/" + evil + ".toml"
	for i := range run.Experiment.Variants {
		run.Experiment.Variants[i].Name = rename[run.Experiment.Variants[i].Name]
	}
	for i := range run.Variants {
		vi := &run.Variants[i]
		vi.Name, vi.Description = rename[vi.Name], "variant description"+evil
		vi.Binary, vi.Version = "/opt/"+evil, "PostgREST "+evil
		vi.Changes = append(vi.Changes, lab.Change{Where: evil, Key: evil, From: evil, To: evil})
	}
	for i := range run.Experiment.Scenarios {
		run.Experiment.Scenarios[i] += evil
	}
	for i := range run.Trials {
		t := &run.Trials[i]
		t.Variant, t.Scenario = rename[t.Variant], t.Scenario+evil
		for j := range t.Load.Endpoints {
			e := &t.Load.Endpoints[j]
			e.Path += evil
			e.Name = lab.EndpointName(e.Status, e.Method, e.Path)
		}
		for j := range t.Load.ServerTiming.Phases {
			t.Load.ServerTiming.Phases[j].Name += evil
		}
		for j := range t.SQL {
			t.SQL[j].Query += evil
		}
		for j := range t.Profile.Stacks {
			s := t.Profile.Stacks[j].Frames
			s[len(s)-1] += evil
		}
		for j := range t.Events {
			t.Events[j].Variant, t.Events[j].Detail = t.Variant, evil
		}
	}
	h := evil
	run.Host = lab.Host{Hostname: h, HostID: h, OS: h, Kernel: h, CPUModel: h, CPUs: 2, CgroupMode: h, PostgreSQL: h, LabVersion: h, GoVersion: h}
	run.Target = lab.TargetInfo{Binary: h, Version: h, Supervisor: h, URL: h, Unit: h, Config: h}
	run.Agent = &lab.AgentInfo{URL: "https://agent" + evil}
	run.Interrupted = evil
	run.Events = append(run.Events, lab.Event{T: run.Trials[1].Start, Kind: lab.EventKind(evil), Source: evil, Detail: evil, Variant: run.Trials[1].Variant})
	run.Trials[0].Error = evil
	run.Capacity = []lab.Capacity{{Scenario: run.Trials[0].Scenario, Variant: run.Trials[0].Variant, Found: 2000, Rate: 1400}}
	return run
}

// viaRunJSON writes run as run.json and reads it back, as lab report
// does with a result directory it is given.
func viaRunJSON(t *testing.T, run *lab.Run) *lab.Run {
	t.Helper()
	dir := t.TempDir()
	if err := record.Write(dir, run); err != nil {
		t.Fatal(err)
	}
	back, err := record.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return back
}

// kinds of output.
const (
	terminal = iota
	markdown
	page
)

// mdToHTML renders Markdown as GitHub does (CommonMark and its tables),
// raw HTML passed through: what a reader of report.md would get.
func mdToHTML(t *testing.T, md string) string {
	t.Helper()
	var b bytes.Buffer
	gm := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(gmhtml.WithUnsafe()))
	if err := gm.Convert([]byte(md), &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

var (
	liveJS = regexp.MustCompile(`(?i)<a[^>]+href="\s*javascript:`)
	// newBlock is the text after evil's line break opening a block of
	// Markdown (in a paragraph a line break is a space; wrapping makes
	// them too).
	newBlock = regexp.MustCompile(`<(p|h[1-6]|li|td|th|pre|blockquote|tr)>\s*FORGED`)
)

// checkEscaped fails when anything of evil survives raw in out: a
// terminal control in any output; on a terminal, a line of its own (the
// line break); in Markdown, a table row split by '|' and, once rendered,
// raw HTML, a link to javascript: or a block of its own; in an HTML page,
// raw HTML or a javascript: link. The text itself must still be there.
func checkEscaped(t *testing.T, name, out string, kind int) {
	t.Helper()
	if out == "" || !strings.Contains(out, "EVIL") {
		t.Errorf("%s: the hostile text is missing (dropped instead of escaped?)", name)
	}
	for _, c := range []string{"\x1b", "\x07", "\x9b", "\u009b", "\r"} {
		if strings.Contains(out, c) {
			i := strings.Index(out, c)
			t.Errorf("%s holds the control %q raw: ...%q...", name, c, out[max(0, i-40):min(len(out), i+20)])
		}
	}
	if kind == terminal && strings.Contains(out, "\nFORGED") {
		t.Errorf("%s: a hostile line break starts a line of its own", name)
	}
	switch kind {
	case markdown:
		checkTables(t, name, out)
		rendered := mdToHTML(t, out)
		if loc := newBlock.FindStringIndex(rendered); loc != nil {
			t.Errorf("%s: a hostile line break starts a block of its own: ...%s...", name, rendered[max(0, loc[0]-200):min(len(rendered), loc[1]+20)])
		}
		if i := strings.Index(rendered, "<script>"); i >= 0 {
			t.Errorf("%s renders raw HTML: ...%s...", name, rendered[max(0, i-200):min(len(rendered), i+40)])
		}
		if loc := liveJS.FindStringIndex(rendered); loc != nil {
			t.Errorf("%s renders a javascript: link: ...%s...", name, rendered[max(0, loc[0]-100):min(len(rendered), loc[1]+40)])
		}
	case page:
		if i := strings.Index(out, "<script>"); i >= 0 {
			t.Errorf("%s holds raw HTML: ...%s...", name, out[max(0, i-200):min(len(out), i+40)])
		}
		if loc := liveJS.FindStringIndex(out); loc != nil {
			t.Errorf("%s holds a javascript: link: %s", name, out[loc[0]:loc[1]])
		}
	}
}

// Issue 41, findings 4 and 5: every string of a hostile run.json (which
// an experiment file's name and description reach) goes into report.md,
// report.html, the terminal summary, the GitHub summary and the embedded
// sections (sweep, profile, phases, endpoints, k6) escaped for each.
// Before, the experiment's source and the agent's URL were put in
// hand-written backticks, its description and the scenarios' names raw,
// and the terminal got ESC as it came.
func TestHostileStringsInEveryRenderer(t *testing.T) {
	run := viaRunJSON(t, evilRun())
	v := stats.Compare(run, 0)
	var term, md, html, summary bytes.Buffer
	report.Terminal(&term, run, v)
	if err := report.Markdown(&md, run, v); err != nil {
		t.Fatal(err)
	}
	if err := report.HTML(&html, run, v); err != nil {
		t.Fatal(err)
	}
	gate := &report.Gate{Rules: evil, Fired: []string{evil}, Blind: []string{evil}}
	if err := report.Summary(&summary, run, v, report.SummaryOptions{Gate: gate, Dir: "results/" + evil, Also: []*stats.Verdicts{v}}); err != nil {
		t.Fatal(err)
	}
	checkEscaped(t, "terminal", term.String(), terminal)
	checkEscaped(t, "report.md", md.String(), markdown)
	checkEscaped(t, "report.html", html.String(), page)
	checkEscaped(t, "summary.md", summary.String(), markdown)
	gate.Fired = nil
	summary.Reset()
	if err := report.Summary(&summary, run, v, report.SummaryOptions{Gate: gate}); err != nil {
		t.Fatal(err)
	}
	checkEscaped(t, "summary.md, gate passed", summary.String(), markdown)

	// The files lab run and lab report write, as written.
	dir := t.TempDir()
	if err := report.WriteAll(dir, run, v); err != nil {
		t.Fatal(err)
	}
	for name, kind := range map[string]int{"report.md": markdown, "report.html": page} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		checkEscaped(t, "written "+name, string(b), kind)
	}
	flames, _ := filepath.Glob(filepath.Join(dir, "flame-*.svg"))
	for _, f := range flames {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		checkEscaped(t, filepath.Base(f), string(b), page)
	}
	if len(flames) == 0 {
		t.Errorf("no flame graph written: the profile sections were not exercised")
	}
	for _, want := range []string{"Where the server's time goes", "Verdict per endpoint", "SQL per variant", "k6-style summary", "## Events"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("report.md lacks %q: the test does not reach that renderer", want)
		}
	}
}

// A sweep whose title, description, scenario and source are hostile: the
// sweep's sections in every format.
func TestHostileStringsInTheSweep(t *testing.T) {
	run := statstest.PoolSweep([]float64{900, 1700, 2400, 2500, 2480, 2300}, 0.02, 3, "")
	run.Experiment.Title, run.Experiment.Description, run.Experiment.Source = evil, evil, evil
	for i := range run.Trials {
		run.Trials[i].Scenario += evil
	}
	run = viaRunJSON(t, run)
	v := stats.Compare(run, 0)
	if v.Sweep == nil {
		t.Fatal("no sweep in the verdicts")
	}
	var term, md, html bytes.Buffer
	report.Terminal(&term, run, v)
	if err := report.Markdown(&md, run, v); err != nil {
		t.Fatal(err)
	}
	if err := report.HTML(&html, run, v); err != nil {
		t.Fatal(err)
	}
	checkEscaped(t, "sweep terminal", term.String(), terminal)
	checkEscaped(t, "sweep report.md", md.String(), markdown)
	checkEscaped(t, "sweep report.html", html.String(), page)
	if !strings.Contains(md.String(), "## Sweep") {
		t.Errorf("report.md has no sweep section")
	}
}

// A matrix of hostile hosts (their labels, URLs, result directories and
// runs) and a failed one, in every matrix format.
func TestHostileStringsInTheMatrixFormats(t *testing.T) {
	results := t.TempDir()
	m := &matrix.Matrix{Experiment: evil, Title: evil, Started: statstest.Start, Schedule: evil}
	for _, label := range []string{"a", "b"} {
		run := viaRunJSON(t, evilRun())
		v := stats.Compare(run, 0)
		dir := writeResult(t, filepath.Join(results, label+evilDir), run, v)
		m.Hosts = append(m.Hosts, matrix.Host{Label: label + evil, URL: "https://" + label + evil, Dir: dir, Run: run, Verdicts: v, Generator: evil})
	}
	m.Hosts = append(m.Hosts, matrix.Host{Label: "c" + evil, URL: "https://c" + evil, Error: evil})
	m.Compare()
	mdir := filepath.Join(results, "matrix")
	var term, md, html bytes.Buffer
	matrix.Text(&term, m)
	if err := matrix.Markdown(&md, m, mdir); err != nil {
		t.Fatal(err)
	}
	if err := matrix.HTML(&html, m, mdir); err != nil {
		t.Fatal(err)
	}
	checkEscaped(t, "matrix terminal", term.String(), terminal)
	checkEscaped(t, "matrix.md", md.String(), markdown)
	checkEscaped(t, "matrix.html", html.String(), page)
}

// A calibration.json whose experiment, stop reason and designs are
// hostile, in its three formats.
func TestHostileStringsInTheCalibration(t *testing.T) {
	outs := []calibrate.Outcome{
		{Design: lab.Order(evil), DeltaPct: 0.4, MDEPct: 4, Rounds: 24, Took: 9 * time.Minute},
		{Design: lab.OrderDuet, DeltaPct: -0.2, MDEPct: 2.5, Rounds: 24, Took: 4 * time.Minute},
	}
	res := &calibrate.Result{Experiment: evil, Stopped: evil, AARuns: 1, Trials: lab.Trials{Min: 6, Max: 24, Alpha: 0.05},
		Rows: calibrate.Tally(outs), Outcomes: outs, Load: lab.Load{Model: lab.ModelClosed, Connections: 10, Duration: 8 * time.Second}}
	var term, md, html bytes.Buffer
	calibration.Text(&term, res)
	if err := calibration.Markdown(&md, res); err != nil {
		t.Fatal(err)
	}
	if err := calibration.HTML(&html, res); err != nil {
		t.Fatal(err)
	}
	checkEscaped(t, "calibration terminal", term.String(), terminal)
	checkEscaped(t, "calibration.md", md.String(), markdown)
	checkEscaped(t, "calibration.html", html.String(), page)
}

// The history of hostile runs (names, IDs, commits, versions) as text and
// as its HTML page.
func TestHostileStringsInTheHistory(t *testing.T) {
	runs := historytest.StepRuns(8, 4, -0.1)
	for i := range runs {
		runs[i].ID = evil
		for j := range runs[i].Run.Variants {
			runs[i].Run.Variants[j].Build = lab.Build{Commit: evil, Version: evil}
		}
	}
	h, err := history.Analyse(evil, runs, history.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var term, html bytes.Buffer
	historyreport.Text(&term, h, historyreport.TextOptions{})
	if err := historyreport.HTML(&html, h, historyreport.HTMLOptions{}); err != nil {
		t.Fatal(err)
	}
	checkEscaped(t, "history terminal", term.String(), terminal)
	checkEscaped(t, "history.html", html.String(), page)
}

// What lab load prints of a server's answers: Server-Timing names and
// error kinds as the server sent them.
func TestHostileStringsInTheLoadReport(t *testing.T) {
	r := &load.Result{Scenario: evil, Model: "closed", Connections: 4, Duration: time.Second, Requests: 100, Rate: 100, Timed: 100,
		Phases: []load.Phase{{Name: evil, Mean: time.Millisecond}}, Status: map[int]int64{200: 100}, ErrorKinds: map[string]int64{evil: 1}}
	var text, k6, search bytes.Buffer
	if err := load.Text(&text, r); err != nil {
		t.Fatal(err)
	}
	if err := load.K6Table(&k6, []*load.Result{r}); err != nil {
		t.Fatal(err)
	}
	if err := load.SearchText(&search, &load.Search{Best: 100, Curve: []load.Step{{Asked: 100, Why: evil, Result: *r}}}); err != nil {
		t.Fatal(err)
	}
	checkEscaped(t, "lab load", text.String(), terminal)
	checkEscaped(t, "lab load --k6", k6.String(), terminal)
	checkEscaped(t, "lab load search", search.String(), terminal)
}

// Issue 54: the article (lab post) of a hostile run, and of it beside a
// clean one, escapes every string in post.md and post.html.
func TestHostileStringsInThePost(t *testing.T) {
	evilDir := t.TempDir()
	if err := record.Write(evilDir, evilRun()); err != nil {
		t.Fatal(err)
	}
	srcs, err := post.Load([]string{evilDir, evilDir})
	if err != nil {
		t.Fatal(err)
	}
	a, err := post.Build(srcs, post.Options{})
	if err != nil {
		t.Fatal(err)
	}
	html, err := a.HTML()
	if err != nil {
		t.Fatal(err)
	}
	var term bytes.Buffer
	a.Terminal(&term, []string{evilDir})
	checkEscaped(t, "lab post's terminal", term.String(), terminal)
	checkEscaped(t, "post.md", a.Markdown, markdown)
	checkEscaped(t, "post.html", string(html), page)
	if evil := strings.Index(string(html), "<title>"); evil < 0 || strings.Contains(string(html)[evil:evil+200], "<script") {
		t.Error("post.html's title holds raw HTML")
	}
}
