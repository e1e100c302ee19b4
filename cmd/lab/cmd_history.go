package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/internal/atomicfile"
	"github.com/pgrst-lab/pgrst-lab/internal/textsafe"
	"github.com/pgrst-lab/pgrst-lab/lab/history"
	historyreport "github.com/pgrst-lab/pgrst-lab/lab/report/history"
	"github.com/pgrst-lab/pgrst-lab/store"
)

func init() {
	register(command{name: "history", summary: "an experiment's runs as series, with change points, to spot regressions", run: cmdHistory})
}

// gateFlag is --gate[=PCT%]: a boolean flag with an optional threshold.
type gateFlag struct {
	on  bool
	pct float64
}

func (g *gateFlag) IsBoolFlag() bool { return true }
func (g *gateFlag) String() string {
	if g == nil || !g.on {
		return ""
	}
	return fmt.Sprintf("%g%%", g.pct)
}

func (g *gateFlag) Set(s string) error {
	switch strings.ToLower(s) {
	case "true":
		g.on, g.pct = true, history.DefaultRegressionPct
		return nil
	case "false":
		g.on = false
		return nil
	}
	pct, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "%")), 64)
	if err != nil || pct <= 0 || pct > 1000 {
		return fmt.Errorf("want a threshold in percent, e.g. --gate=3%%")
	}
	g.on, g.pct = true, pct
	return nil
}

var pctArg = regexp.MustCompile(`^[+-]?[0-9.]+%$`)

func cmdHistory(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("history", "history [--results DIR | --store URI] [--host H] [--by commit|version|time] [--repo DIR] [--html FILE] [--gate[=PCT%]] EXPERIMENT\n\n"+
		"Per scenario × variant × metric (throughput, p99, server + database CPU per request by default), the\n"+
		"per-run medians with their 95% CIs and MDEs, ordered by commit (git's order with --repo), by version\n"+
		"or by time; change points by E-Divisive means with a significance test, each with the commit range\n"+
		"where it happened, its size and whether it exceeds the runs' MDE. One series per machine and per\n"+
		"edition of the experiment file. --gate exits with code 3 when the newest run begins a significant\n"+
		"regression of at least PCT % (default 2 %); see docs/history.md.", stdout)
	results := fs.String("results", "results", "results `directory`: runs are DIR/EXPERIMENT/*/run.json")
	storeURI := storeFlag(fs)
	host := fs.String("host", "", "only the runs of the machine with this HostID or hostname")
	by := fs.String("by", "auto", "order runs by `commit`, version or time (auto: commit when every run names one, else version, else time)")
	repo := fs.String("repo", "", "git repository `DIR`: order commits as `git rev-list --topo-order HEAD` does; runs of other commits are listed apart")
	metrics := fs.String("metrics", strings.Join(history.HeadlineMetrics, ","), "comma-separated metric `names`")
	alpha := fs.Float64("alpha", 0, "significance level of the MDE (0: the runs' own, else 0.05)")
	htmlFile := fs.String("html", "", "also write the trend page to `FILE` (self-contained HTML)")
	full := fs.Bool("full", false, "list every run of a series (by default long series show their ends and the runs around change points)")
	var g gateFlag
	fs.Var(&g, "gate", "exit with code 3 when the newest run begins a significant regression of at least `PCT`% (--gate alone: 2%; write --gate=5%)")
	help, pos, err := parseInterspersed(fs, args)
	if help || err != nil {
		return err
	}
	if len(pos) != 1 {
		for _, p := range pos {
			if pctArg.MatchString(p) {
				return usageErrorf("history: %q: give --gate's threshold as --gate=%s", p, p)
			}
		}
		return usageErrorf("history: want one experiment name, got %d arguments", len(pos))
	}
	if err := checkAlpha(*alpha); err != nil {
		return err
	}
	order, err := history.ParseOrder(*by)
	if err != nil {
		return usageErrorf("%v", err)
	}
	opts := history.Options{By: order, Host: *host, Alpha: *alpha}
	for _, m := range strings.Split(*metrics, ",") {
		if m = strings.TrimSpace(m); m != "" {
			opts.Metrics = append(opts.Metrics, m)
		}
	}
	if *repo != "" {
		if order != history.ByCommit && order != history.ByAuto {
			return usageErrorf("history: --repo orders commits: it needs --by commit (or auto), not --by %s", order)
		}
		commits, err := gitOrder(ctx, *repo)
		if err != nil {
			return err
		}
		opts.Commits, opts.Repo = commits, *repo
	}
	experiment := pos[0]
	var runs []history.Run
	if uri := storeFrom(*storeURI); uri != "" {
		runs, err = loadStore(ctx, uri, experiment)
		if err != nil {
			return err
		}
	} else {
		var errs []error
		runs, errs = history.LoadDir(*results, experiment)
		for _, err := range errs {
			textsafe.Fprintf(stderr, "skipped: %v\n", err)
		}
		if len(runs) == 0 {
			return fmt.Errorf("history: no runs of %q under %s", experiment, filepath.Join(*results, experiment))
		}
	}
	h, err := history.Analyse(experiment, runs, opts)
	if err != nil {
		return err
	}
	historyreport.Text(stdout, h, historyreport.TextOptions{Full: *full})
	if *htmlFile != "" {
		var b bytes.Buffer
		if err := historyreport.HTML(&b, h, historyreport.HTMLOptions{PageDir: filepath.Dir(*htmlFile)}); err != nil {
			return err
		}
		if err := atomicfile.Write(*htmlFile, b.Bytes(), atomicfile.Options{Mode: 0o644}); err != nil {
			return fmt.Errorf("history: %w", err)
		}
		fmt.Fprintf(stdout, "\nwrote %s\n", *htmlFile)
	}
	if !g.on {
		return nil
	}
	regressed := history.Regressions(h, g.pct)
	if len(regressed) == 0 {
		fmt.Fprintf(stdout, "\ngate %g%%: passed: the newest run begins no significant regression of at least %g%%\n", g.pct, g.pct)
		return nil
	}
	fmt.Fprintf(stdout, "\ngate %g%%: FAILED: the newest run begins a significant regression:\n", g.pct)
	for _, r := range regressed {
		textsafe.Fprintf(stdout, "  %s\n", r)
	}
	return fmt.Errorf("%w: history: %d series regressed at the newest run (beyond %g%%)", errGate, len(regressed), g.pct)
}

// gitOrder is the repository's commits in git's topological order, oldest
// first.
func gitOrder(ctx context.Context, dir string) ([]string, error) {
	cmd := exec.CommandContext(ctx, "git", "-C", dir, "rev-list", "--topo-order", "--reverse", "HEAD")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("history: --repo %s: git rev-list: %v: %s", dir, err, strings.TrimSpace(stderr.String()))
	}
	return strings.Fields(string(out)), nil
}

// loadStore reads an experiment's runs from the store at uri, oldest
// first. --host is applied by history.Analyse, which matches a HostID or
// a hostname (the store's Query.HostID matches only the former).
func loadStore(ctx context.Context, uri, experiment string) ([]history.Run, error) {
	st, err := store.Open(ctx, uri)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	runs, err := storedRuns(ctx, st, experiment, "")
	if err == nil && len(runs) == 0 {
		err = fmt.Errorf("history: no runs of %q in the store", experiment)
	}
	return runs, err
}
