package report_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/textsafe"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/record"
	"github.com/pgrst-lab/pgrst-lab/lab/report"
	"github.com/pgrst-lab/pgrst-lab/lab/report/matrix"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
	"github.com/pgrst-lab/pgrst-lab/lab/stats/statstest"
)

// hostile is what an agent could send in any string: a terminal escape
// that clears the screen, a table break, a line break, HTML, a link and
// 10 kB of filler.
var hostile = "evil\x1b[2J|cell\n<script>alert(1)</script>[x](http://x)" + strings.Repeat("A", 10<<10)

// hostileRun is a run whose every agent-supplied string (host, target,
// changes, events, a failed trial's error) is hostile; clean passes it
// through textsafe.CleanStrings first, as the agent client does with every
// answer.
func hostileRun(clean bool) *lab.Run {
	run := statstest.Run(statstest.Spec{Experiment: "socket-vs-tcp", Scenarios: []string{"GETSingle"},
		Variants: []statstest.Variant{{Name: "tcp", Baseline: true, Rate: 2000, P50Ms: 2, ServerUs: 100, DBUs: 100},
			{Name: "unix", Rate: 2200, P50Ms: 2, ServerUs: 90, DBUs: 100}},
		Trials: 4, Noise: 0.02, Seed: 7, Detail: true})
	h := hostile
	run.Host = lab.Host{Hostname: h, HostID: h, OS: h, Kernel: h, CPUModel: h, CPUs: 2, CgroupMode: h, PostgreSQL: h, LabVersion: h}
	run.Target = lab.TargetInfo{Binary: h, Version: h, Supervisor: h, URL: "http://127.0.0.1:3000", Unit: h, Config: h}
	for i := range run.Variants {
		run.Variants[i].Changes = []lab.Change{{Where: h, Key: h, From: h, To: h}}
	}
	run.Events = append(run.Events, lab.Event{T: run.Trials[1].Start, Kind: "oom", Source: h, Detail: h})
	run.Trials[0].Error = h
	if clean {
		textsafe.CleanStrings(run)
	}
	return run
}

// checkTables fails when a Markdown table row has another number of cells
// than its header (an unescaped '|' or a line break split it).
func checkTables(t *testing.T, name, md string) {
	t.Helper()
	unescaped := regexp.MustCompile(`(^|[^\\])(\\\\)*\|`)
	header := -1
	for i, line := range strings.Split(md, "\n") {
		if !strings.HasPrefix(line, "|") {
			header = -1
			continue
		}
		n := len(unescaped.FindAllString(line, -1))
		if header < 0 {
			header = n
		} else if n != header {
			t.Errorf("%s line %d: %d cell borders, the header has %d: %.200s", name, i+1, n, header, line)
		}
	}
}

// checkSafe fails on what must never come out of a report built from
// agent answers: a terminal escape; in Markdown and HTML (md) raw HTML,
// and in Markdown a link.
func checkSafe(t *testing.T, name, out string, md, html bool) {
	t.Helper()
	if strings.Contains(out, "\x1b") {
		t.Errorf("%s holds a terminal escape", name)
	}
	if md && !html {
		// Code spans show their text as is: no HTML, no link.
		out = regexp.MustCompile("`[^`]*`").ReplaceAllString(out, "")
	}
	if md && strings.Contains(out, "<script>") {
		t.Errorf("%s holds raw <script>", name)
	}
	if md && !html && strings.Contains(out, "[x](") {
		t.Errorf("%s holds a live Markdown link", name)
	}
	if !strings.Contains(out, "evil") {
		t.Errorf("%s dropped the agent's text instead of cleaning it", name)
	}
}

// A run built from hostile agent answers: the terminal, Markdown and HTML
// reports carry the text, but no escape, no broken table, no HTML or link;
// run.json and verdicts.json keep the cleaned strings exactly.
func TestHostileAgentStringsInEveryFormat(t *testing.T) {
	run := hostileRun(true)
	if got := run.Host.Hostname; strings.ContainsAny(got, "\x1b\n") || len([]rune(got)) > textsafe.MaxText {
		t.Fatalf("the boundary let through %.80q (%d runes)", got, len([]rune(got)))
	}
	v := stats.Compare(run, 0)
	var term, md, html bytes.Buffer
	report.Terminal(&term, run, v)
	if err := report.Markdown(&md, run, v); err != nil {
		t.Fatal(err)
	}
	if err := report.HTML(&html, run, v); err != nil {
		t.Fatal(err)
	}
	checkSafe(t, "terminal", term.String(), false, false)
	checkSafe(t, "report.md", md.String(), true, false)
	checkSafe(t, "report.html", html.String(), true, true)
	checkTables(t, "report.md", md.String())
	if !strings.Contains(html.String(), "&lt;script&gt;") {
		t.Errorf("report.html does not show the agent's <script> as text")
	}

	// JSON round trip: run.json gives back the cleaned strings unchanged.
	dir := writeResult(t, t.TempDir(), run, v)
	back, err := record.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if back.Host != run.Host || back.Target != run.Target || back.Trials[0].Error != run.Trials[0].Error ||
		back.Variants[0].Changes[0] != run.Variants[0].Changes[0] {
		t.Errorf("run.json round trip changed the strings: %.80q", back.Host.Hostname)
	}
}

// The Markdown writers escape table cells themselves: even strings that
// did not pass the boundary (a run.json edited by hand) keep every table
// intact and carry no raw HTML or link.
func TestMarkdownEscapesUncleanedStrings(t *testing.T) {
	run := hostileRun(false)
	v := stats.Compare(run, 0)
	var md bytes.Buffer
	if err := report.Markdown(&md, run, v); err != nil {
		t.Fatal(err)
	}
	checkTables(t, "report.md", md.String())
	checkSafe(t, "report.md", strings.ReplaceAll(md.String(), "\x1b", ""), true, false)
}

// A matrix of hostile hosts (and a failed one whose agent's error is
// hostile) in every matrix format, and matrix.json read back by LoadMatrix.
func TestHostileAgentStringsInTheMatrix(t *testing.T) {
	results := t.TempDir()
	m := &matrix.Matrix{Experiment: "socket-vs-tcp", Started: statstest.Start, Schedule: textsafe.CleanText(hostile)}
	for _, label := range []string{"a", "b"} {
		run := hostileRun(true)
		v := stats.Compare(run, 0)
		dir := writeResult(t, filepath.Join(results, label, "socket-vs-tcp", "t"), run, v)
		m.Hosts = append(m.Hosts, matrix.Host{Label: label, URL: "https://" + label + ":7171", Dir: dir, Run: run, Verdicts: v})
	}
	m.Hosts = append(m.Hosts, matrix.Host{Label: "c", URL: "https://c:7171", Error: "POST /apply: agent: " + textsafe.CleanText(hostile)})
	m.Compare()
	mdir := filepath.Join(results, "matrix", "socket-vs-tcp", "t")
	var term, md, html bytes.Buffer
	matrix.Text(&term, m)
	if err := matrix.Markdown(&md, m, mdir); err != nil {
		t.Fatal(err)
	}
	if err := matrix.HTML(&html, m, mdir); err != nil {
		t.Fatal(err)
	}
	checkSafe(t, "matrix terminal", term.String(), false, false)
	checkSafe(t, "matrix.md", md.String(), true, false)
	checkSafe(t, "matrix.html", html.String(), true, true)
	checkTables(t, "matrix.md", md.String())

	if err := matrix.Write(mdir, m); err != nil {
		t.Fatal(err)
	}
	back, err := matrix.Load(mdir, 0)
	if err != nil {
		t.Fatal(err)
	}
	if back.Schedule != m.Schedule || len(back.Hosts) != 3 || back.Hosts[2].Error != m.Hosts[2].Error ||
		back.Hosts[0].Run == nil || back.Hosts[0].Run.Host != m.Hosts[0].Run.Host {
		t.Errorf("matrix.json round trip: %d hosts, schedule %.60q", len(back.Hosts), back.Schedule)
	}
	var js bytes.Buffer
	if err := matrix.JSON(&js, back, mdir); err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := json.Unmarshal(js.Bytes(), &raw); err != nil {
		t.Errorf("matrix.json after a round trip: %v", err)
	}
}

// writeResult writes a result directory as lab run does: run.json and the reports.
func writeResult(t *testing.T, dir string, run *lab.Run, v *stats.Verdicts) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeRun(t, dir, run)
	if err := report.WriteAll(dir, run, v); err != nil {
		t.Fatal(err)
	}
	return dir
}
