package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/gitbuild"
	"github.com/pgrst-lab/pgrst-lab/internal/atomicfile"
	"github.com/pgrst-lab/pgrst-lab/internal/textsafe"
	"github.com/pgrst-lab/pgrst-lab/lab/history"
	"github.com/pgrst-lab/pgrst-lab/lab/report/alert"
	historyreport "github.com/pgrst-lab/pgrst-lab/lab/report/history"
	"github.com/pgrst-lab/pgrst-lab/store"
)

func init() {
	register(command{name: "history", summary: "an experiment's runs as series, with change points, to spot regressions", run: cmdHistory})
}

func cmdHistory(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "ack" {
		return cmdHistoryAck(ctx, args[1:], stdout)
	}
	fs := newFlags("history", "history [--results DIR | --store URI] [--host H] [--by commit|version|time] [--repo DIR] [--html FILE] [--gate[=PCT%]] EXPERIMENT\n\n"+
		"Per scenario × variant × metric (throughput, p99, server + database CPU per request by default), the\n"+
		"per-run medians with their 95% CIs and MDEs, ordered by commit (git's order with --repo), by version\n"+
		"or by time; change points by E-Divisive means with a significance test, each with the commit range\n"+
		"where it happened, its size and whether it exceeds the runs' MDE. One series per machine and per\n"+
		"edition of the experiment file. --gate exits with code 3 when the newest run begins a significant\n"+
		"regression of at least PCT % (default 2 %); see docs/history.md. Each change point has an id:\n"+
		"`lab history ack ID --note TEXT` acknowledges it (no alert from lab track, marked here).", stdout)
	results := fs.String("results", "results", "results `directory`: runs are DIR/EXPERIMENT/*/run.json")
	storeURI := storeFlag(fs)
	host := fs.String("host", "", "only the runs of the machine with this HostID or hostname")
	by := fs.String("by", "auto", "order runs by `commit`, version or time (auto: commit when every run names one, else version, else time)")
	repo := fs.String("repo", "", "git repository `DIR`: order commits as `git rev-list --topo-order HEAD` does; runs of other commits are listed apart")
	metrics := fs.String("metrics", strings.Join(history.HeadlineMetrics, ","), "comma-separated metric `names`")
	alpha := fs.Float64("alpha", 0, "significance level of the MDE (0: the runs' own, else 0.05)")
	htmlFile := fs.String("html", "", "also write the trend page to `FILE` (self-contained HTML)")
	full := fs.Bool("full", false, "list every run of a series (by default long series show their ends and the runs around change points)")
	var g history.Threshold
	fs.Var(&g, "gate", "exit with code 3 when the newest run begins a significant regression of at least `PCT`% (--gate alone: 2%; write --gate=5%)")
	help, pos, err := parseInterspersed(fs, args)
	if help || err != nil {
		return err
	}
	if len(pos) != 1 {
		for _, p := range pos {
			if history.PctArg.MatchString(p) {
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
		commits, err := gitbuild.TopoOrder(ctx, *repo)
		if err != nil {
			return fmt.Errorf("history: --repo: %w", err)
		}
		opts.Commits, opts.Repo = commits, *repo
	}
	experiment := pos[0]
	var runs []history.Run
	var acks map[string]history.Ack
	if uri := storeFrom(*storeURI); uri != "" {
		runs, acks, err = loadStore(ctx, uri, experiment)
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
	h.Acknowledge(acks)
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
	if !g.On {
		return nil
	}
	regressed := history.Regressions(h, g.Pct)
	if len(regressed) == 0 {
		fmt.Fprintf(stdout, "\ngate %g%%: passed: the newest run begins no significant regression of at least %g%%\n", g.Pct, g.Pct)
		return nil
	}
	fmt.Fprintf(stdout, "\ngate %g%%: FAILED: the newest run begins a significant regression:\n", g.Pct)
	for _, r := range regressed {
		textsafe.Fprintf(stdout, "  %s\n", r)
	}
	return fmt.Errorf("%w: history: %d series regressed at the newest run (beyond %g%%)", errGate, len(regressed), g.Pct)
}

// loadStore reads an experiment's runs from the store at uri, oldest
// first, and the acknowledged change points. --host is applied by
// history.Analyse, which matches a HostID or a hostname (the store's
// Query.HostID matches only the former).
func loadStore(ctx context.Context, uri, experiment string) ([]history.Run, map[string]history.Ack, error) {
	st, err := store.Open(ctx, uri)
	if err != nil {
		return nil, nil, err
	}
	defer st.Close()
	runs, err := st.HistoryRuns(ctx, experiment, "")
	if err == nil && len(runs) == 0 {
		err = fmt.Errorf("history: no runs of %q in the store", experiment)
	}
	if err != nil {
		return nil, nil, err
	}
	acks, err := st.Acks(ctx)
	return runs, acks, err
}

// cmdHistoryAck is `lab history ack ID --note TEXT`.
func cmdHistoryAck(ctx context.Context, args []string, stdout io.Writer) error {
	fs := newFlags("history ack", "history ack ID --note TEXT [--store URI] [--max-p P]\n\n"+
		"Acknowledges the change point ID (as lab history and lab track print it): lab track sends no alert about\n"+
		"it, and lab history marks it with the note.", stdout)
	note := fs.String("note", "", "why the change is known (`TEXT`), shown beside it")
	var o history.Options
	fs.Float64Var(&o.Detect.MaxP, "max-p", 0, "the significance `P` lab track found the change point with (--max-p), when it sent no alert")
	storeURI := storeFlag(fs)
	help, pos, err := parseInterspersed(fs, args)
	if help || err != nil {
		return err
	}
	uri := storeFrom(*storeURI)
	if len(pos) != 1 || uri == "" {
		return usageErrorf("history ack: want one change point id and a store (--store URI or $%s), got %q", store.EnvURI, pos)
	}
	st, err := store.Open(ctx, uri)
	if err != nil {
		return err
	}
	defer st.Close()
	runs := func(ctx context.Context) ([]history.Run, error) { return st.HistoryRuns(ctx, "", "") }
	k, at, err := alert.Acknowledge(ctx, st, pos[0], *note, runs, o)
	if err != nil {
		return err
	}
	textsafe.Fprintf(stdout, "acknowledged %s at %s: %s / %s / %s / %s, %s..%s\n", k.ID(), at.UTC().Format("2006-01-02 15:04"),
		k.Experiment, k.Scenario, k.Variant, k.Metric, history.ShortCommit(k.Before), history.ShortCommit(k.After))
	return nil
}
