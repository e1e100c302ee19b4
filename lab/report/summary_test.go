package report_test

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
	"github.com/pgrst-lab/pgrst-lab/lab/stats/statstest"
)

func summaryOf(t *testing.T, run *lab.Run, o report.SummaryOptions) string {
	t.Helper()
	var b bytes.Buffer
	if err := report.Summary(&b, run, stats.Compare(run, 0.05), o); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// The PR comment: the gate and the verdict table first, details folded.
func TestSummaryVerdictFirst(t *testing.T) {
	run := fixtureRun("closed")
	run.Variants[0].Binary, run.Variants[0].Version = "/opt/base/postgrest", "PostgREST 13.0.8"
	run.Variants[1].Binary, run.Variants[1].Version = "/opt/pr/postgrest", "PostgREST 13.0.9 (abc123)"
	run.Variants[1].Build = lab.Build{Commit: "abc1234def5678abc1234def5678abc1234def56", Ref: "pr-branch", Repo: "/src/postgrest"}
	p99, _ := lab.MetricByName("p99")
	md := summaryOf(t, run, report.SummaryOptions{Dir: "results/socket-vs-tcp/20261130-090000",
		Gate: &report.Gate{Rules: "p99>+5%", Fired: []string{"GETSingle: unix vs tcp: latency p99 +8.00% (p=0.008 n=8) beyond p99>+5%"}, Metrics: []lab.Metric{p99}}})
	gate, table, details := strings.Index(md, "**Gate `p99>+5%`: FAILED**"), strings.Index(md, "| scenario | variant | throughput vs tcp |"), strings.Index(md, "<details>")
	if gate < 0 || table < gate || details < table {
		t.Fatalf("want gate, verdict table, then details (at %d, %d, %d):\n%s", gate, table, details, md)
	}
	// format.MdEscape writes > as &gt; (it renders as >).
	for _, want := range []string{"| latency p99 |", "beyond p99&gt;+5%", "`tcp`: PostgREST 13.0.8 (`/opt/base/postgrest`)",
		"`unix`: PostgREST 13.0.9 (abc123)", "results/socket-vs-tcp/20261130-090000/report.md", "### GETSingleEmbed", "</details>"} {
		if !strings.Contains(md, want) {
			t.Errorf("summary lacks %q:\n%s", want, md)
		}
	}
	// The marker by which the comment workflow finds the one comment to
	// edit opens the body; the commits the builds came from are named.
	if !strings.HasPrefix(md, report.CommentMarker+"\n### pgrst-lab: ") {
		t.Errorf("the summary does not open with the marker %q:\n%s", report.CommentMarker, md[:200])
	}
	if !strings.Contains(md, "Built from: `unix`: commit `abc1234def5678abc1234def5678abc1234def56` (ref `pr-branch`).") {
		t.Errorf("summary lacks the PR build's commit")
	}
	if o, c := strings.Count(md, "<details>"), strings.Count(md, "</details>"); o != c || o < 2 {
		t.Errorf("<details> %d, </details> %d", o, c)
	}
	passed := summaryOf(t, run, report.SummaryOptions{Gate: &report.Gate{Rules: "throughput<-3%"}})
	if !strings.Contains(passed, "**Gate `throughput<-3%`: passed**") || strings.Contains(passed, "blind") {
		t.Errorf("a gate that did not fire:\n%s", passed[:300])
	}
	blind := summaryOf(t, run, report.SummaryOptions{Gate: &report.Gate{Rules: "throughput<-1%",
		Blind: []string{"GETSingle: unix vs tcp: throughput: mde ±3.8% > 1% (throughput<-1%)"}}})
	if !strings.Contains(blind, "**Gate `throughput<-1%`: inconclusive**") || strings.Contains(blind, "passed") ||
		!strings.Contains(blind, "on 1 comparison(s) this run could not have detected a change of the gate's size") ||
		!strings.Contains(blind, "- GETSingle: unix vs tcp: throughput: mde ±3.8% &gt; 1%") {
		t.Errorf("a blind gate is not called so:\n%s", blind[:600])
	}
}

// A run with many scenarios and variants still fits a GitHub comment
// (65,536 characters): the per-scenario tables that do not fit are left
// out, saying so, and the folds stay balanced.
func TestSummaryFitsGitHubComment(t *testing.T) {
	run := poolSizeRun()
	// Eight scenarios: copy the two synthetic ones under other names.
	var more []lab.Trial
	for _, name := range []string{"GETSingleEmbed", "POSTSingle", "POSTBulk", "RPCSimple", "RPCGETSingle", "RPCGETSingleEmbed"} {
		for _, tr := range run.Trials {
			if tr.Scenario == "GETSingle" {
				tr.Scenario = name
				tr.Error = strings.Repeat("a long failure message that repeats ", 3*len(name)) + tr.Error
				more = append(more, tr)
			}
		}
	}
	run.Trials = append(run.Trials, more...)
	run.Experiment.Scenarios = append(run.Experiment.Scenarios, "GETSingleEmbed", "POSTSingle", "POSTBulk", "RPCSimple", "RPCGETSingle", "RPCGETSingleEmbed")
	var full bytes.Buffer
	if err := report.Markdown(&full, run, stats.Compare(run, 0.05)); err != nil {
		t.Fatal(err)
	}
	if full.Len() <= report.CommentLimit {
		t.Fatalf("the full report has %d bytes: the test needs one longer than a comment", full.Len())
	}
	md := summaryOf(t, run, report.SummaryOptions{})
	if len(md) > report.CommentLimit {
		t.Errorf("summary has %d bytes, GitHub's limit is %d", len(md), report.CommentLimit)
	}
	if !strings.Contains(md, "left out to fit a GitHub comment") {
		t.Error("summary does not say that scenarios were left out")
	}
	if o, c := strings.Count(md, "<details>"), strings.Count(md, "</details>"); o != c {
		t.Errorf("<details> %d, </details> %d", o, c)
	}
	if n := strings.Count(md, "| RPCGETSingleEmbed | pool-"); n != 5 {
		t.Errorf("verdict table has %d rows of the last scenario, want 5", n)
	}
}

// verdicts.json names the executables and their versions when variants
// set binaries, and only then.
func TestJSONBinaries(t *testing.T) {
	run := fixtureRun("closed")
	var plain bytes.Buffer
	if err := report.JSON(&plain, stats.Compare(run, 0.05), run); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain.String(), `"binaries"`) {
		t.Error("binaries without a variant that set one")
	}
	run.Variants[1].Binary, run.Variants[1].Version = "/opt/pr/postgrest", "PostgREST 13.0.9"
	var b bytes.Buffer
	if err := report.JSON(&b, stats.Compare(run, 0.05), run); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"binaries": [`, `"variant": "unix"`, `"binary": "/opt/pr/postgrest"`, `"version": "PostgREST 13.0.9"`, `"rows": [`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("verdicts.json lacks %s", want)
		}
	}
}

// Issue 55: the comment's first lines carry every significant change of
// any metric, not only the gated one. A PR that leaves throughput and CPU
// alone but grows peak RSS by 20 % says so before any table, under a
// CPU gate that passed; a run where nothing changed says that instead.
func TestSummaryNamesEverySignificantChangeFirst(t *testing.T) {
	spec := func(prRSS float64) *lab.Run {
		return statstest.Run(statstest.Spec{Experiment: "ab", Scenarios: []string{"GETSingle"}, Trials: 10, Noise: 0.005, Seed: 4,
			Variants: []statstest.Variant{
				{Name: "base", Baseline: true, Rate: 2000, P50Ms: 4, ServerUs: 400, DBUs: 300, RSSMB: 50},
				{Name: "pr", Rate: 2000, P50Ms: 4, ServerUs: 400, DBUs: 300, RSSMB: prRSS},
			}})
	}
	md := summaryOf(t, spec(60), report.SummaryOptions{Gate: &report.Gate{Rules: "cpu>+3%"}})
	changes, table := strings.Index(md, "**Significant changes**"), strings.Index(md, "| scenario |")
	if changes < 0 || table < 0 || changes > table {
		t.Fatalf("no list of significant changes before the verdict table:\n%.1200s", md)
	}
	list := md[changes:table]
	if !strings.Contains(list, "GETSingle: pr vs base: server peak RSS +") || !regexp.MustCompile(`peak RSS \+[0-9.]+% \(worse, p=[^;]*; holds\)`).MatchString(list) {
		t.Errorf("the planted peak RSS change (+20 %%) is not among the first lines:\n%s", list)
	}
	if strings.Contains(list, "throughput") {
		t.Errorf("throughput did not change, yet is listed:\n%s", list)
	}
	// In an A/A, a metric or two may read significant by itself (p < 0.05
	// on each of many): none holds across them.
	quiet := summaryOf(t, spec(50), report.SummaryOptions{})
	if strings.Contains(quiet, "; holds)") || !strings.Contains(quiet, "No significant change of any metric.") && !strings.Contains(quiet, "could be chance among many metrics") {
		t.Errorf("an A/A summary reports a change that holds, or says nothing of chance:\n%.800s", quiet)
	}
}

// Issue 55: a comment never names a runner's local path. The full report
// is linked where it was uploaded (an https URL only), else named by the
// result directory's last two parts.
func TestSummaryReportLinkNoLocalPath(t *testing.T) {
	run := fixtureRun("closed")
	const dir = "/tmp/runner-1/work/results/socket-vs-tcp/20261130-090000"
	md := summaryOf(t, run, report.SummaryOptions{Dir: dir})
	if strings.Contains(md, "/tmp") || !strings.Contains(md, "`socket-vs-tcp/20261130-090000/report.md`") {
		t.Errorf("the summary names the runner's path, or not the run:\n%s", md[strings.LastIndex(md, "<sub>"):])
	}
	const u = "https://github.com/PostgREST/postgrest/actions/runs/42"
	linked := summaryOf(t, run, report.SummaryOptions{Dir: dir, ReportURL: u})
	if !strings.Contains(linked, "[the run's artifacts]("+u+")") || strings.Contains(linked, "/tmp") {
		t.Errorf("the summary does not link the uploaded report:\n%s", linked[strings.LastIndex(linked, "<sub>"):])
	}
	evil := summaryOf(t, run, report.SummaryOptions{Dir: dir, ReportURL: "javascript:alert(1)"})
	if strings.Contains(evil, "javascript:") {
		t.Errorf("a non-https report URL is linked:\n%s", evil[strings.LastIndex(evil, "<sub>"):])
	}
}

// Issue 55: when every variant ran a binary of its own, the setup's
// Target names those (baseline first), not the stack's target alone:
// 13.0.8 against 14.17 on a 14.17 stack does not read "Target: 14.17".
func TestTargetRowNamesTheVariantsBinaries(t *testing.T) {
	run := fixtureRun("closed")
	run.Target.Binary, run.Target.Version = "/opt/stack/postgrest", "PostgREST 14.17"
	run.Variants = run.Variants[:2]
	run.Variants[0].Binary, run.Variants[0].Version = "/opt/base/postgrest", "PostgREST 13.0.8"
	run.Variants[1].Binary, run.Variants[1].Version = "/opt/pr/postgrest", "PostgREST 14.17"
	got := report.TargetRowDesc(run)
	want := run.Variants[0].Name + ": PostgREST 13.0.8; " + run.Variants[1].Name + ": PostgREST 14.17 (each variant's own binary"
	if !strings.HasPrefix(got, want) {
		t.Errorf("Target %q, want it to start %q", got, want)
	}
	run.Variants[1].Binary = ""
	if got := report.TargetRowDesc(run); got != report.TargetDesc(run.Target) {
		t.Errorf("a variant on the stack's target: Target %q, want the stack's %q", got, report.TargetDesc(run.Target))
	}
}
