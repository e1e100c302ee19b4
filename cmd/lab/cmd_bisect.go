package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/pgrst-lab/pgrst-lab/gitbuild"
	"github.com/pgrst-lab/pgrst-lab/host/stack"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/bisect"
	"github.com/pgrst-lab/pgrst-lab/lab/session"
	"github.com/pgrst-lab/pgrst-lab/lab/track"
)

func init() {
	register(command{name: "bisect", summary: "find the first commit of a performance change between two refs", run: cmdBisect})
}

const bisectUsage = `bisect GOOD BAD --repo DIR [--metric cpu] [--experiment NAME|FILE] [flags]

Finds the first commit of a performance change: GOOD is a commit at the old
level, BAD a later one at the new (a regression or an improvement alike).
The commits from GOOD to BAD (BAD's first-parent history) are halved: each
midpoint is built (gitbuild, cached by commit and command, as lab track and
lab ab --repo build) and measured against GOOD and BAD in one run, the three
builds in rounds, shuffled (the experiment, default track: GETSingle),
tested on --metric with the paired sequential test until the step is decided
(--min-trials, --max-trials; the track experiment's 5 rounds become 6..12).
A step says "old level", "new level" or that it cannot tell and why (which
ends the search). The ends are built once and measured in every step's own
rounds (pairing). Prints the first commit, its subject and the evidence; the
exit status is non-zero when it cannot tell.

Examples:
    lab bisect v12.0.0 v12.2.0 --repo ~/src/postgrest
    lab bisect 1a2b3c4 5d6e7f8 --repo ~/src/postgrest --metric p99 --max-trials 20
GOOD and BAD of a change point: lab history prints "... in GOOD..BAD: regression".
See docs/tracking.md.`

// cmdBisect wires lab bisect: the flags, the range (gitbuild), the stack;
// the search is bisect.Bisector's.
func cmdBisect(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bisect", bisectUsage, stdout)
	dir := fs.String("dir", stack.DefaultDir, "state directory of the local stack")
	results := fs.String("results", "results", "where each step's result directory is written")
	postgrest := fs.String("postgrest", "", "PostgREST binary, when this run brings the stack up")
	ed := editFlags(fs)
	var git repoFlags
	git.add(fs)
	expName := fs.String("experiment", "track", "the experiment `NAME|FILE` of one scenario each step runs (its variants become GOOD's, the midpoint's and BAD's builds)")
	metricName := fs.String("metric", "cpu", "the metric `NAME` a step decides on: cpu (server + database CPU per request), server_cpu, db_cpu, rate, p50, p99, ...")
	help, pos, err := parseInterspersed(fs, args)
	if help || err != nil {
		return err
	}
	metric, err := bisect.MetricNamed(*metricName)
	switch {
	case len(pos) != 2:
		return usageErrorf("bisect: give two refs, GOOD BAD (the older first), not %d arguments", len(pos))
	case git.repo == "":
		return usageErrorf("bisect: give the repository: --repo DIR")
	case err != nil:
		return usageErrorf("bisect: %v", err)
	}
	if git.repo, err = filepath.Abs(git.repo); err != nil {
		return err
	}
	if git.command == "" {
		git.command = os.Getenv(buildEnv)
	}
	listed, err := gitbuild.Range(ctx, git.repo, pos[0], pos[1])
	if err != nil {
		return usageErrorf("bisect: --repo %s: %v", git.repo, err)
	}
	rng := make([]track.Commit, len(listed))
	for i, c := range listed {
		rng[i] = track.Commit(c)
	}
	ed.Edit = append(ed.Edit, bisect.ThreeVariants)
	e, err := loadExperiment(*expName, *ed)
	if err != nil {
		return err
	}
	srv, url, closeFn, err := stackServer(ctx, *dir, *postgrest, e, stderr)
	if err != nil {
		return err
	}
	defer closeFn()
	runStep := func(ctx context.Context, e *lab.Experiment, bins []lab.Binary, stop func(*lab.Run) bool) (*lab.Run, string, error) {
		res, err := session.Run(ctx, session.Options{Experiment: e, Server: srv, Loader: loader(url), Results: *results, Decided: stop,
			Progress: session.NewTermProgress(stdout), LabVersion: labVersion(), Note: func(run *lab.Run) {
				lab.NoteBinaries(run, e.Variants, binaryVersions(ctx, e), git.repo, bins)
			}})
		if res == nil {
			return nil, "", err
		}
		return res.Run, res.Dir, err
	}
	b := &bisect.Bisector{Out: stdout, Build: git.commitBuilder(), Measure: bisect.RunMeasurer(e, metric, runStep)}
	res, err := b.Bisect(ctx, rng)
	if res == nil {
		return err
	}
	fmt.Fprintln(stdout)
	bisect.Print(stdout, res, metric)
	if _, found := res.First(); err == nil && !found {
		return fmt.Errorf("bisect: cannot tell the first commit (see above)")
	}
	return err
}
