package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/pgrst-lab/pgrst-lab/lab/report"
)

func init() {
	register(command{name: "history", summary: "an experiment's runs over time, to spot regressions", run: cmdHistory})
}

func cmdHistory(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("history", "history [--results DIR] [--alpha A] EXPERIMENT\n\n"+
		"Lists the runs under DIR/EXPERIMENT/<timestamp>/ oldest first: per scenario and variant the median\n"+
		"throughput and p99 of each run, and the change against the previous run; changes that are\n"+
		"significant and at least --min-change % are flagged as regression or improvement.", stdout)
	results := fs.String("results", "results", "results directory")
	alpha := fs.Float64("alpha", 0, "significance level (0: 0.05)")
	minChange := fs.Float64("min-change", report.DefaultMinChange, "smallest change in % flagged as a regression or improvement")
	help, pos, err := parseInterspersed(fs, args)
	if help || err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageErrorf("history: want one experiment name, got %d arguments", len(pos))
	}
	if err := checkAlpha(*alpha); err != nil {
		return err
	}
	runs, errs := report.LoadHistory(*results, pos[0])
	for _, err := range errs {
		fmt.Fprintf(stderr, "skipped: %v\n", err)
	}
	if len(runs) == 0 {
		return fmt.Errorf("history: no runs of %q under %s", pos[0], filepath.Join(*results, pos[0]))
	}
	report.History(stdout, pos[0], runs, *alpha, *minChange)
	return nil
}
