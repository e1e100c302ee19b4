package report

import (
	"bufio"
	"bytes"
	"fmt"
	"io"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// CommentLimit is the most characters a GitHub comment (and a step
// summary) may hold; Summary stays below it.
const CommentLimit = 65536

// CommentMarker opens every summary: an HTML comment (not shown) by which
// a workflow finds the one pull-request comment to edit in place
// (docs/github-actions.md, the workflow_run half of the fork-safe pair).
const CommentMarker = "<!-- pgrst-lab -->"

// Gate is what `lab run --gate` decided, for the summary.
type Gate struct {
	Rules string   // as given, e.g. "throughput<-3%,p99>+10%"
	Fired []string // one line per rule that fired on a verdict row
	// Blind are the rows on which a rule could not have seen a change of
	// its own size (the run's MDE is larger), one line each.
	Blind []string
	// Metrics are the gated metrics, shown as columns of the verdict table.
	Metrics []lab.Metric
}

// SummaryOptions are what the summary adds to the run.
type SummaryOptions struct {
	Gate *Gate // nil without --gate
	// Dir is the run's result directory, named as where the full report is
	// (its last two parts when absolute: a runner's /tmp path means
	// nothing to the comment's reader).
	Dir string
	// ReportURL, when set, is where the full report was uploaded (the CI
	// run's artifacts), linked in place of Dir; only https URLs are linked.
	ReportURL string
	// Also are further comparisons of the same run against another
	// variant than the baseline (stats.CompareWith), each shown as its own
	// verdict table after the baseline's: `lab ab --base --release` compares
	// the pull request's build with the release too.
	Also []*stats.Verdicts
}

// Summary writes a Markdown summary sized for a GitHub comment (lab run
// --markdown): CommentMarker, the gate's decision, every significant
// change of any metric and the verdict table first, the binaries'
// versions and the commits they were built from, then the per-scenario
// tables and the setup folded in <details>.
// It stays under CommentLimit bytes: scenarios that do not fit are left out,
// saying so.
func Summary(w io.Writer, run *lab.Run, v *stats.Verdicts, o SummaryOptions) error {
	var head bytes.Buffer
	b := bufio.NewWriter(&head)
	title := run.Experiment.Title
	if title == "" {
		title = run.Experiment.Name
	}
	fmt.Fprintf(b, "%s\n### pgrst-lab: %s\n\n", CommentMarker, format.MdEscape(title))
	if run.Target.Reference {
		fmt.Fprintf(b, "> Measured on the reference server (postgrest-mini), not PostgREST.\n\n")
	}
	if run.Interrupted != "" {
		fmt.Fprint(b, format.MdPara("> **Interrupted run:** "+format.MdEscape(run.Interrupted)))
	}
	if g := o.Gate; g != nil {
		mdGate(b, g)
	}
	mdChanges(b, append([]*stats.Verdicts{v}, o.Also...))
	mdEndpoints(b, v, "####")
	mdVerdictTable(b, v, summaryExtras(v, o.Gate))
	for _, a := range o.Also {
		fmt.Fprint(b, format.MdPara(fmt.Sprintf("**Against %s**, in the same rounds (paired, the same test):", format.MdEscape(a.Baseline))))
		mdEndpoints(b, a, "####")
		mdVerdictTable(b, a, summaryExtras(a, o.Gate))
	}
	if bins := binariesDesc(run, format.MdCode, format.MdEscape); bins != "" {
		fmt.Fprint(b, format.MdPara("Binaries: "+bins+"."))
	}
	if builds := buildsDesc(run); builds != "" {
		fmt.Fprint(b, format.MdPara("Built from: "+builds+"."))
	}
	fmt.Fprint(b, format.MdPara(format.MdEscape(fmt.Sprintf("Load: %s; %s trials per variant and scenario. Test: %s.", LoadDesc(run.Experiment.Load), trialCounts(run), v.Method()))))
	b.Flush()

	var setup bytes.Buffer
	sb := bufio.NewWriter(&setup)
	fmt.Fprintf(sb, "<details><summary>Setup and variants</summary>\n\n")
	mdSetup(sb, run)
	mdVariants(sb, run)
	fmt.Fprintf(sb, "</details>\n\n")
	where := reportWhere(o)
	fmt.Fprintf(sb, "<sub>pgrst-lab %s; full report: %s.</sub>\n", format.MdEscape(run.Host.LabVersion), where)
	sb.Flush()

	// Per-scenario tables, as many as fit.
	budget := CommentLimit - 512 - head.Len() - setup.Len()
	var details bytes.Buffer
	left := 0
	for i, sc := range v.Scenarios {
		var part bytes.Buffer
		pb := bufio.NewWriter(&part)
		mdScenario(pb, v, sc)
		pb.Flush()
		if details.Len()+part.Len() > budget {
			left = len(v.Scenarios) - i
			break
		}
		details.Write(part.Bytes())
	}
	var all bytes.Buffer
	out := bufio.NewWriter(&all)
	out.Write(head.Bytes())
	if details.Len() > 0 || left > 0 {
		fmt.Fprintf(out, "<details><summary>Results per scenario (all metrics)</summary>\n\n")
		out.Write(details.Bytes())
		if left > 0 {
			fmt.Fprintf(out, "%d more scenario(s) left out to fit a GitHub comment; see the full report.\n\n", left)
		}
		fmt.Fprintf(out, "</details>\n\n")
	}
	out.Write(setup.Bytes())
	out.Flush()
	_, err := w.Write(fitComment(all.Bytes()))
	return err
}

// fitComment cuts md at a line end below CommentLimit when even the verdict
// table is too long (hundreds of comparisons), saying so.
func fitComment(md []byte) []byte {
	if len(md) <= CommentLimit {
		return md
	}
	const note = "\n… truncated to fit a GitHub comment; see the full report.\n"
	cut := md[:CommentLimit-len(note)]
	if i := bytes.LastIndexByte(cut, '\n'); i > 0 {
		cut = cut[:i]
	}
	return append(append([]byte(nil), cut...), note...)
}

// summaryExtras are the verdict table's extra columns: the gated metrics,
// or p99 latency and CPU per request, without the primary metric.
func summaryExtras(v *stats.Verdicts, g *Gate) []lab.Metric {
	var ms []lab.Metric
	if g != nil && len(g.Metrics) > 0 {
		ms = g.Metrics
	} else {
		for _, n := range []string{"rate", "p99", "cpu"} {
			m, _ := lab.MetricByName(n)
			ms = append(ms, m)
		}
	}
	primary := primaryLabel(v)
	var out []lab.Metric
	seen := map[string]bool{}
	for _, m := range ms {
		if m.Label == primary || seen[m.Name] {
			continue
		}
		seen[m.Name] = true
		out = append(out, m)
	}
	return out
}
