package post

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// mdTried is what each run of several variants tried (an A/B run, a sweep,
// a config change against its baseline): a row per variant and scenario
// with its changes and the headline's measured effect, the attempts that
// made nothing better listed as such, as the 2020 thread asked ("the
// changes you made to get it faster, and your failed attempts").
func mdTried(b *bufio.Writer, srcs []Source) {
	var runs []*Source
	for i := range srcs {
		if len(stats.VariantNames(srcs[i].Run)) > 1 {
			runs = append(runs, &srcs[i])
		}
	}
	if len(runs) == 0 {
		return
	}
	fmt.Fprint(b, "## What was tried\n\n")
	for _, s := range runs {
		v := stats.Compare(s.Run, 0)
		rows := v.Headlines()
		if len(rows) == 0 {
			continue
		}
		if len(runs) > 1 || len(srcs) > 1 {
			fmt.Fprintf(b, "### %s\n\n", format.MdEscape(s.Label))
		}
		fmt.Fprint(b, format.MdPara(format.MdEscape(fmt.Sprintf("Each variant against the baseline %s, on %s: the change of the medians "+
			"when the test found one (~ when it did not), its p-value, and the smallest change the run could have seen.",
			v.Baseline, v.Primary.Label))))
		fmt.Fprint(b, "| variant | changes | scenario | effect | test | could see | outcome |\n|---|---|---|---:|---|---:|---|\n")
		var failed []string
		for _, r := range rows {
			fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s |\n", format.MdCode(r.VariantName), changes(s.Run, r.VariantName),
				format.MdEscape(r.Scenario), r.Delta(), r.PString(), r.MDEString(), outcomeWords(r))
			if r.Outcome != stats.Better {
				failed = append(failed, fmt.Sprintf("%s on %s: %s", r.VariantName, r.Scenario, outcomeWords(r)))
			}
		}
		fmt.Fprintln(b)
		if len(failed) > 0 {
			fmt.Fprint(b, "Attempts that made nothing better:\n\n")
			for _, f := range failed {
				fmt.Fprintf(b, "- %s\n", format.MdEscape(f))
			}
			fmt.Fprintln(b)
		}
	}
}

// changes are what a variant changed against the run's configuration,
// "where key: from → to" each, or "none".
func changes(run *lab.Run, variant string) string {
	var out []string
	for _, vi := range run.Variants {
		if vi.Name != variant {
			continue
		}
		for _, c := range vi.Changes {
			from, to := c.From, c.To
			if from == "" {
				from = "(none)"
			}
			if to == "" {
				to = "(none)"
			}
			out = append(out, fmt.Sprintf("%s %s: %s → %s", format.MdEscape(c.Where), format.MdCode(c.Key), format.MdCode(from), format.MdCode(to)))
		}
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, "; ")
}

// outcomeWords says a row's verdict: "better", "worse", "no change the
// run could see (±3.1%)", "not comparable".
func outcomeWords(r stats.Row) string {
	switch r.Outcome {
	case stats.Better, stats.Worse:
		return string(r.Outcome)
	case stats.NotComparable:
		return "not comparable"
	}
	return "no change the run could see (" + r.MDEString() + ")"
}
