package main

import (
	"context"
	"io"

	"github.com/pgrst-lab/pgrst-lab/lab/record"
	"github.com/pgrst-lab/pgrst-lab/lab/report"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

func init() {
	register(command{name: "compare", summary: "compare two runs (e.g. two PostgREST versions), the first as baseline", run: cmdCompare})
}

func cmdCompare(_ context.Context, args []string, stdout, _ io.Writer) error {
	fs := newFlags("compare", "compare DIR_A DIR_B [--format terminal|md|json] [--alpha A]\n\n"+
		"Compares each variant and scenario of run B with the same variant and scenario of run A (the\n"+
		"baseline); when the runs share no variant name, their baselines are compared.", stdout)
	format := fs.String("format", "terminal", "what to print: terminal, md, json")
	alpha := fs.Float64("alpha", 0, "significance level (0: run A's experiment's, else 0.05)")
	help, pos, err := parseInterspersed(fs, args)
	if help || err != nil {
		return err
	}
	if len(pos) != 2 {
		return usageErrorf("compare: want two result directories (A, the baseline, and B), got %d arguments", len(pos))
	}
	if err := checkFormat(*format, []string{"terminal", "md", "json"}); err != nil {
		return err
	}
	if err := checkAlpha(*alpha); err != nil {
		return err
	}
	var runs [2]report.Compared
	for i, dir := range pos {
		run, err := record.ReadDir(dir)
		if err != nil {
			return err
		}
		runs[i] = report.Compared{Label: string(rune('A' + i)), Dir: dir, Run: run}
	}
	a, b := runs[0], runs[1]
	v := stats.CompareRuns(a.Run, b.Run, a.Label, b.Label, *alpha)
	switch *format {
	case "md":
		return report.CompareMarkdown(stdout, a, b, v)
	case "json":
		return report.JSON(stdout, v)
	}
	report.CompareTerminal(stdout, a, b, v)
	return nil
}
