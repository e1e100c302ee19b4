package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/internal/textsafe"
	"github.com/pgrst-lab/pgrst-lab/lab/gate"
	"github.com/pgrst-lab/pgrst-lab/lab/record"
	"github.com/pgrst-lab/pgrst-lab/lab/report"
	"github.com/pgrst-lab/pgrst-lab/lab/report/matrix"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

func init() {
	register(command{name: "report", summary: "re-render the reports of a result directory", run: cmdReport})
}

var reportFormats = []string{"terminal", "md", "html", "json", "bench", "bmf", "otava", "summary"}

func cmdReport(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("report", "report DIR [--format terminal|md|html|json|bench|bmf|otava|summary [--gate RULES]] [--alpha A] [--write] (DIR: a result directory or a matrix directory; "+
		"--format otava takes several DIRs or results trees and writes one CSV row per run)", stdout)
	format := fs.String("format", "terminal", "what to print: "+strings.Join(reportFormats, ", ")+
		" (bmf: Bencher Metric Format JSON; otava: a CSV file Apache Otava reads)")
	alpha := fs.Float64("alpha", 0, "significance level (0: the experiment's, else 0.05)")
	write := fs.Bool("write", false, "also rewrite DIR's report files ("+strings.Join(report.Files, ", ")+")")
	var rules []gate.Rule
	fs.Func("gate", "--format summary: the `RULES` whose decision the summary states (as lab ab --gate)", func(s string) (err error) {
		rules, err = gate.Parse(s)
		return err
	})
	help, pos, err := parseInterspersed(fs, args)
	if help || err != nil {
		return err
	}
	if err := checkFormat(*format, reportFormats); err != nil {
		return err
	}
	if err := checkAlpha(*alpha); err != nil {
		return err
	}
	if *format == "otava" {
		return reportOtava(pos, *write, stdout, stderr)
	}
	if len(pos) != 1 {
		return usageErrorf("report: want one result directory (the one holding run.json), got %d arguments", len(pos))
	}
	dir := pos[0]
	if matrix.IsDir(dir) {
		if *format == "bmf" {
			return usageErrorf("report: --format bmf writes one run: give one host's result directory of the matrix %s", dir)
		}
		return reportMatrix(dir, *format, *alpha, *write, stdout, stderr)
	}
	run, err := record.ReadDir(dir)
	if err != nil {
		return err
	}
	v := stats.Compare(run, *alpha)
	if *write {
		if err := report.WriteAll(dir, run, v); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "wrote %s in %s\n", strings.Join(report.Files, ", "), dir)
	}
	switch *format {
	case "md":
		return report.Markdown(stdout, run, v)
	case "html":
		return report.HTML(stdout, run, v)
	case "json":
		return report.JSON(stdout, v, run)
	case "bench":
		return report.Bench(stdout, run)
	case "bmf":
		return report.BMF(stdout, run)
	case "summary": // the comment, rendered from the record alone (the trusted half of docs/github-actions.md)
		g, _ := report.GateOf(rules, v)
		return report.Summary(stdout, run, v, report.SummaryOptions{Gate: g, ReportURL: report.URLFromEnv(os.Getenv)})
	}
	report.Terminal(stdout, run, v)
	return nil
}

// reportOtava writes the runs under dirs as one Otava CSV file, a row per
// run, oldest first; unreadable run.json files are skipped with a warning.
func reportOtava(dirs []string, write bool, stdout, stderr io.Writer) error {
	if len(dirs) == 0 {
		return usageErrorf("report: want one or more result directories or results trees, got none")
	}
	if write {
		return usageErrorf("report: --write rewrites one result directory's files; not with --format otava")
	}
	runs, errs, err := report.FindRuns(dirs...)
	if err != nil {
		return err
	}
	for _, e := range errs {
		textsafe.Fprintf(stderr, "lab report: skipped: %v\n", e)
	}
	if len(runs) == 0 {
		return fmt.Errorf("report: no run.json under %s", strings.Join(dirs, ", "))
	}
	return report.Otava(stdout, runs)
}

func checkFormat(format string, allowed []string) error {
	for _, f := range allowed {
		if f == format {
			return nil
		}
	}
	return usageErrorf("--format %q: allowed values are %s", format, strings.Join(allowed, ", "))
}

func checkAlpha(alpha float64) error {
	if alpha < 0 || alpha >= 1 {
		return usageErrorf("--alpha %g: want a significance level between 0 and 1, e.g. 0.05", alpha)
	}
	return nil
}

// parseInterspersed parses flags that may come before, between or after
// positional arguments ("lab report DIR --format md"); it returns the
// positional arguments in order.
func parseInterspersed(fs *flag.FlagSet, args []string) (help bool, pos []string, err error) {
	for {
		if help, err = parseFlags(fs, args); help || err != nil {
			return help, nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return false, pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}
