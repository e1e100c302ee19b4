package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/pgrst-lab/pgrst-lab/gitbuild"
	"github.com/pgrst-lab/pgrst-lab/host/reconcile"
	"github.com/pgrst-lab/pgrst-lab/host/stack"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/changepoint"
	"github.com/pgrst-lab/pgrst-lab/lab/history"
	"github.com/pgrst-lab/pgrst-lab/lab/session"
	"github.com/pgrst-lab/pgrst-lab/lab/track"
	"github.com/pgrst-lab/pgrst-lab/store"
)

func init() {
	register(command{name: "track", summary: "measure each new commit of a branch, store the runs, report change points", run: cmdTrack})
}

const trackUsage = `track --repo DIR [--branch main] [--every N | --tags] [--since REF] [--limit K] [--experiment NAME|FILE] [--store URI]

Measures a branch commit by commit: lists its first-parent commits (or,
with --tags, its release tags v1.2.3 in version order), skips those the
store holds a run of already (of this machine, the commit built with the same
--build), then for each of the others, oldest first:
builds it (gitbuild, cached by commit and command, see lab ab --repo),
runs the experiment (default: track, GETSingle) with ONE variant, that
build, stores the run and prints the change points of the series so far
(as lab history does). A commit whose build fails is reported and skipped;
the exit status is non-zero when any failed. Ctrl-C stops after restoring
the configuration; the interrupted commit is not stored.

Examples:

    lab track --repo ~/src/postgrest --store postgres://lab@store/lab
    lab track --repo ~/src/postgrest --every 10 --limit 5 --build 'nix-build -A postgrestPackage'
    lab track --repo ~/src/postgrest --tags --since v12.0.0

See docs/tracking.md (and systemd/units/lab-track.timer for nightly runs).`

func cmdTrack(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("track", trackUsage, stdout)
	t := &tracker{stdout: stdout}
	dir := fs.String("dir", stack.DefaultDir, "state directory of the local stack")
	results := fs.String("results", "results", "where result directories are written")
	postgrest := fs.String("postgrest", "", "PostgREST binary, when this run brings the stack up")
	ed := editFlags(fs)
	var git repoFlags
	git.add(fs)
	branch := fs.String("branch", "main", "the `BRANCH` whose commits are measured")
	var sel track.Selection
	fs.IntVar(&sel.Every, "every", 0, "measure every `N`th commit only")
	tags := fs.Bool("tags", false, "measure the release tags (v1.2.3) merged into the branch instead of its commits")
	since := fs.String("since", "", "start at this `REF` (a commit or tag of the branch)")
	fs.IntVar(&sel.Limit, "limit", 0, "measure at most `K` commits this time (the oldest not measured)")
	expName := fs.String("experiment", "track", "the experiment `NAME|FILE` run per commit (its variants are replaced by the commit's build)")
	metrics := fs.String("metrics", strings.Join(history.HeadlineMetrics, ","), "comma-separated metric `names` whose change points are printed")
	fs.Float64Var(&t.maxP, "max-p", 0, "significance `P` a change point needs (default 0.001, Otava's, set for 30+ runs; a short series of few commits may need 0.01)")
	storeURI := storeFlag(fs)
	help, pos, err := parseInterspersed(fs, args)
	if help || err != nil {
		return err
	}
	switch uri := storeFrom(*storeURI); {
	case len(pos) > 0:
		return usageErrorf("track: unexpected arguments %q (the experiment is --experiment NAME)", pos)
	case git.repo == "":
		return usageErrorf("track: give the repository: --repo DIR")
	case uri == "":
		return usageErrorf("track: no store: give --store URI or set $%s (the runs are kept there)", store.EnvURI)
	case t.maxP < 0 || t.maxP >= 1:
		return usageErrorf("track: --max-p %g: want a significance level in (0, 1), e.g. 0.01", t.maxP)
	case *tags && sel.Every > 1:
		return usageErrorf("track: --every and --tags: give one of them")
	}
	if git.repo, err = filepath.Abs(git.repo); err != nil {
		return err
	}
	if git.command == "" {
		git.command = os.Getenv(buildEnv)
	}
	// Runs of this machine count: another's are another series.
	t.git, t.ed, t.hostID = git, ed, reconcile.DescribeHost(ctx).HostID
	for _, m := range strings.Split(*metrics, ",") {
		if m = strings.TrimSpace(m); m != "" {
			t.metrics = append(t.metrics, m)
		}
	}
	if err := t.list(ctx, *branch, *tags, *since, &sel); err != nil {
		return err
	}
	if t.e, err = loadExperiment(*expName, t.oneVariant()); err != nil {
		return err
	}
	if t.st, err = store.Open(ctx, storeFrom(*storeURI)); err != nil {
		return err
	}
	defer t.st.Close()
	plan, err := t.plan(ctx, sel)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "track %s %s: %s to measure, %d measured already", git.repo, *branch, plural(len(plan.Measure), "commit"), len(plan.Measured))
	if plan.Limited > 0 {
		fmt.Fprintf(stdout, ", %d left for later (--limit)", plan.Limited)
	}
	fmt.Fprintln(stdout)
	if len(plan.Measure) == 0 {
		return t.changes(ctx)
	}
	srv, url, closeFn, err := stackServer(ctx, *dir, *postgrest, t.e, stderr)
	if err != nil {
		return err
	}
	defer closeFn()
	if err := store.RefuseMeasured(ctx, storeFrom(*storeURI), srv.AdminURI()); err != nil {
		return err
	}
	return t.measure(ctx, plan.Measure, session.Options{Experiment: t.e, Server: srv, Loader: loader(url), Results: *results,
		Progress: newRunProgress(stdout), LabVersion: labVersion()})
}

// trackVariant names the one variant of a track run: the commit's build.
const trackVariant = "build"

type tracker struct {
	git            repoFlags
	ed             *session.Edits
	e              *lab.Experiment
	st             *store.Store
	commits, order []track.Commit
	metrics        []string
	maxP           float64
	hostID         string
	stdout         io.Writer
}

// list reads the branch's commits (or tags) and resolves --since.
func (t *tracker) list(ctx context.Context, branch string, tags bool, since string, sel *track.Selection) error {
	all, err := gitbuild.Commits(ctx, t.git.repo, branch)
	if err != nil {
		return usageErrorf("track: --repo %s --branch %s: %v", t.git.repo, branch, err)
	}
	listed := all
	if tags {
		if listed, err = gitbuild.Tags(ctx, t.git.repo, branch); err != nil {
			return fmt.Errorf("track: --tags: %w", err)
		}
	}
	for _, c := range all {
		t.order = append(t.order, track.Commit(c))
	}
	for _, c := range listed {
		t.commits = append(t.commits, track.Commit(c))
	}
	if since != "" {
		if sel.Since, err = gitbuild.Resolve(ctx, t.git.repo, since); err != nil {
			return usageErrorf("track: --since: %v", err)
		}
	}
	return nil
}

// oneVariant makes the experiment's variants the one the builds fill in.
func (t *tracker) oneVariant() session.Edits {
	ed := *t.ed
	ed.Edit = append(ed.Edit, func(e *lab.Experiment) error {
		e.Variants = []lab.Variant{{Name: trackVariant, Baseline: true, Description: "the commit's build"}}
		return nil
	})
	return ed
}

// plan selects the commits to measure: those with no stored run of the experiment.
func (t *tracker) plan(ctx context.Context, sel track.Selection) (track.Plan, error) {
	runs, err := t.runs(ctx)
	if err != nil {
		return track.Plan{}, err
	}
	// Measured: a run of the commit built with the same command (when
	// one is given; the default depends on the worktree).
	measured := map[string]bool{}
	for _, r := range runs {
		if t.git.command == "" || slices.ContainsFunc(r.Run.Variants, func(v lab.VariantInfo) bool {
			return v.Name == trackVariant && strings.Contains(v.Description, "`"+t.git.command+"`")
		}) {
			measured[strings.ToLower(lab.MeasuredBuild(r.Run, trackVariant).Commit)] = true
		}
	}
	p, err := track.Select(t.commits, func(sha string) bool { return measured[sha] }, sel)
	if err != nil {
		return p, usageErrorf("track: %v", err)
	}
	return p, nil
}

func (t *tracker) runs(ctx context.Context) ([]history.Run, error) {
	stored, err := t.st.Runs(ctx, store.Query{Experiment: t.e.Name, HostID: t.hostID})
	if err != nil {
		return nil, err
	}
	runs := make([]history.Run, len(stored))
	for i, s := range stored {
		runs[i] = history.Run{ID: s.ID, Ref: s.Ref, Run: s.Run}
	}
	return runs, nil
}

// measure builds, runs and stores each commit, oldest first.
func (t *tracker) measure(ctx context.Context, cs []track.Commit, o session.Options) error {
	var eta track.ETA
	var failed []string
	start := time.Now()
	command := t.git.command
	for i, c := range cs {
		line := func(phase string, builds int) {
			fmt.Fprintln(t.stdout, eta.Line(i+1, len(cs), c, phase, time.Since(start), builds, len(cs)-i))
		}
		line("building", len(cs)-i)
		b0 := time.Now()
		res, err := gitbuild.Build(ctx, gitbuild.Options{Repo: t.git.repo, Ref: c.SHA, SHA: c.SHA, Command: command,
			Artifact: t.git.artifact, Progress: func(s string) { fmt.Fprintf(t.stdout, "  build %s\n", s) }})
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			fmt.Fprintf(t.stdout, "commit %d/%d %s: the build failed (the log's tail follows at the end); next commit\n", i+1, len(cs), c.Label())
			failed = append(failed, fmt.Sprintf("commit %s: %v", c.Label(), err))
			continue
		}
		eta.Built(time.Since(b0), res.Cached)
		line("running", len(cs)-i-1)
		v := &t.e.Variants[0]
		v.Binary, v.Description = res.Path, fmt.Sprintf("%s, built with `%s`", c.Label(), res.Command)
		o.Note = func(run *lab.Run) {
			noteVersions(t.e, binaryVersions(ctx, t.e))(run)
			run.Variants[0].Build.Repo, run.Variants[0].Build.Ref, run.Variants[0].Build.Commit = t.git.repo, c.SHA, c.SHA
			// One edition of the experiment for every commit (its hash
			// groups a history): the build is the variant's, in the record.
			run.Experiment.Variants = []lab.Variant{{Name: trackVariant, Baseline: true, Binary: "(the commit's build)", Description: "the commit's build"}}
		}
		r0 := time.Now()
		out, err := session.Run(ctx, o)
		if ctx.Err() != nil {
			return fmt.Errorf("track: interrupted at commit %s (not stored): %w", c.Label(), ctx.Err())
		}
		if err == nil {
			err = putResult(ctx, t.st, out, t.stdout)
		}
		if err != nil {
			fmt.Fprintf(t.stdout, "commit %d/%d %s: the run failed: %v; next commit\n", i+1, len(cs), c.Label(), err)
			failed = append(failed, fmt.Sprintf("commit %s: run: %v", c.Label(), err))
			continue
		}
		eta.Ran(time.Since(r0))
		if err := t.changes(ctx); err != nil {
			return err
		}
	}
	fmt.Fprintf(t.stdout, "track: %d of %d measured in %s\n", len(cs)-len(failed), len(cs), time.Since(start).Round(time.Second))
	if len(failed) > 0 {
		return fmt.Errorf("track: %d of %d commits failed:\n%s", len(failed), len(cs), strings.Join(failed, "\n"))
	}
	return nil
}

// changes prints the change points of the experiment's series, the
// commits in the branch's order.
func (t *tracker) changes(ctx context.Context) error {
	runs, err := t.runs(ctx)
	if err != nil || len(runs) == 0 {
		return err
	}
	order := make([]string, len(t.order))
	for i, c := range t.order {
		order[i] = c.SHA
	}
	h, err := history.Analyse(t.e.Name, runs, history.Options{By: history.ByCommit, Commits: order, Repo: t.git.repo, Metrics: t.metrics,
		Detect: changepoint.Options{MaxP: t.maxP}})
	if err != nil {
		return err
	}
	lines := history.ChangeLines(h)
	fmt.Fprintf(t.stdout, "change points over %s: %d\n", plural(h.Runs, "run"), len(lines))
	for _, l := range lines {
		fmt.Fprintf(t.stdout, "  %s\n", l)
	}
	return nil
}
