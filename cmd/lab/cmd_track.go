package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/gitbuild"
	"github.com/pgrst-lab/pgrst-lab/host/reconcile"
	"github.com/pgrst-lab/pgrst-lab/host/stack"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/capability"
	"github.com/pgrst-lab/pgrst-lab/lab/history"
	"github.com/pgrst-lab/pgrst-lab/lab/report/alert"
	"github.com/pgrst-lab/pgrst-lab/lab/session"
	"github.com/pgrst-lab/pgrst-lab/lab/track"
	"github.com/pgrst-lab/pgrst-lab/store"
)

func init() {
	register(command{name: "track", summary: "measure each new commit of a branch, store the runs, report change points", run: cmdTrack})
}

const trackUsage = `track --repo DIR [--branch main] [--every N | --tags] [--since REF] [--limit K] [--experiment NAME|FILE] [--store URI]
      [--alert-webhook URL] [--alert-issue FILE]

Measures a branch commit by commit: lists its first-parent commits (or,
with --tags, its release tags v1.2.3 in version order), skips those the
store holds a run of already (of this machine, the commit built with the same
--build), then for each of the others, oldest first:
builds it (gitbuild, cached by commit and command, see lab ab --repo),
runs the experiment (default: track, GETSingle) with ONE variant, that
build, stores the run and prints the change points of the series so far
(as lab history does). A commit whose build fails is reported and skipped;
the exit status is non-zero when any failed. Ctrl-C stops after restoring
the configuration; the interrupted commit is not stored. A new change point
beyond the runs' MDE is sent once (the store remembers; lab history ack
silences one) to --alert-webhook and/or --alert-issue; see docs/tracking.md.
--reference REF (or a path) measures each commit beside that fixed build,
both at once (binaries, lab ab's duet), the series the ratio build÷reference.

Examples:

    lab track --repo ~/src/postgrest --store postgres://lab@store/lab
    lab track --repo ~/src/postgrest --every 10 --limit 5 --build 'nix-build -A postgrestPackage'
    lab track --repo ~/src/postgrest --tags --since v12.0.0
    lab track --repo ~/src/postgrest --reference v14.0.0 --limit 5

See docs/tracking.md (and systemd/units/lab-track.timer for nightly runs).`

// cmdTrack wires lab track: the flags, the commits (gitbuild), the store
// and the stack; the loop is track.Tracker's.
func cmdTrack(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("track", trackUsage, stdout)
	t := &track.Tracker{Out: stdout}
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
	expName := fs.String("experiment", "track", "the experiment `NAME|FILE` run per commit (its variants are replaced by the commit's build); binaries with --reference")
	reference := fs.String("reference", "", "measure each commit beside this fixed build, both served at once: a `REF` of --repo or an executable's path; the series is the ratio build ÷ reference")
	metrics := fs.String("metrics", strings.Join(history.HeadlineMetrics, ","), "comma-separated metric `names` whose change points are printed")
	fs.Float64Var(&t.MaxP, "max-p", 0, "significance `P` a change point needs (default 0.001, Otava's, set for 30+ runs; a short series of few commits may need 0.01)")
	storeURI := storeFlag(fs)
	var al alert.Options
	fs.StringVar(&al.Webhook, "alert-webhook", "", "POST each new change point beyond the MDE once to this webhook `URL` (JSON with a Slack-compatible text)")
	fs.StringVar(&al.IssueFile, "alert-issue", "", "write the new change points beyond the MDE as an issue's Markdown body to `FILE` (gh issue create --body-file)")
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
	case t.MaxP < 0 || t.MaxP >= 1:
		return usageErrorf("track: --max-p %g: want a significance level in (0, 1), e.g. 0.01", t.MaxP)
	case *tags && sel.Every > 1:
		return usageErrorf("track: --every and --tags: give one of them")
	case al.Webhook != "" && capability.RedactURL(al.Webhook) == capability.RedactedValue:
		return usageErrorf("track: --alert-webhook: want an http:// or https:// URL")
	}
	if git.repo, err = filepath.Abs(git.repo); err != nil {
		return err
	}
	if git.command == "" {
		git.command = os.Getenv(buildEnv)
	}
	t.Repo, t.Command, git.progress = git.repo, git.command, stdout
	for _, m := range strings.Split(*metrics, ",") {
		if m = strings.TrimSpace(m); m != "" {
			t.Metrics = append(t.Metrics, m)
		}
	}
	commits, err := listCommits(ctx, git.repo, *branch, *tags, *since, &sel)
	if err != nil {
		return err
	}
	t.Order = commits.order
	oneVariant := *ed
	oneVariant.Edit = append(oneVariant.Edit, track.OneVariant)
	if *reference != "" {
		if !flagGiven(fs, "experiment") {
			*expName = "binaries" // the calibrated duet
		}
		path, label, sha, err := git.referenceBuild(ctx, *reference)
		if err != nil {
			return err
		}
		t.ReferenceSHA = sha
		oneVariant.Edit = append(slices.Clip(ed.Edit), track.WithReference(path, label))
	}
	if t.Experiment, err = loadExperiment(*expName, oneVariant); err != nil {
		return err
	}
	st, err := store.Open(ctx, storeFrom(*storeURI))
	if err != nil {
		return err
	}
	defer st.Close()
	// Runs of this machine count: another's are another series.
	hostID := reconcile.DescribeHost(ctx).HostID
	t.Runs = func(ctx context.Context) ([]history.Run, error) {
		return st.HistoryRuns(ctx, t.Experiment.Name, hostID)
	}
	if al.Enabled() {
		al.Ledger, al.Out = st, stdout
		t.Alert = func(ctx context.Context, h *history.History) error { return alert.Send(ctx, h, al) }
	}
	plan, err := t.Plan(ctx, commits.listed, sel)
	if se := (*track.SelectionError)(nil); errors.As(err, &se) {
		return usageErrorf("track: %v", err)
	} else if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "track %s %s: %s to measure, %d measured already", git.repo, *branch, plural(len(plan.Measure), "commit"), len(plan.Measured))
	if plan.Limited > 0 {
		fmt.Fprintf(stdout, ", %d left for later (--limit)", plan.Limited)
	}
	fmt.Fprintln(stdout)
	if len(plan.Measure) == 0 {
		return t.Changes(ctx)
	}
	srv, url, closeFn, err := stackServer(ctx, *dir, *postgrest, t.Experiment, stderr)
	if err != nil {
		return err
	}
	defer closeFn()
	if err := store.RefuseMeasured(ctx, storeFrom(*storeURI), srv.AdminURI()); err != nil {
		return err
	}
	var duet *lab.Duet
	if t.Experiment.Trials.Order == lab.OrderDuet { // --reference's binaries: both builds at once
		d, closeDuet, err := stackDuet(ctx, *dir, srv, url, t.Experiment, stderr)
		if err != nil {
			return err
		}
		defer closeDuet()
		duet = d
	}
	o := session.Options{Experiment: t.Experiment, Server: srv, Loader: loader(url), Duet: duet, Results: *results,
		Progress: session.NewTermProgress(stdout), LabVersion: labVersion()}
	t.Build = git.commitBuilder()
	t.Measure = func(ctx context.Context, c track.Commit) error {
		o.Note = func(run *lab.Run) {
			lab.NoteBinaries(run, t.Experiment.Variants, binaryVersions(ctx, t.Experiment), "", nil)
			t.Note(run, c)
		}
		out, err := session.Run(ctx, o)
		if err != nil || ctx.Err() != nil {
			return err
		}
		return putResult(ctx, st, out, stdout)
	}
	return t.Track(ctx, plan.Measure)
}

// branchCommits are a branch's commits (order, oldest first) and those
// lab track lists: the same, or its release tags.
type branchCommits struct{ order, listed []track.Commit }

// listCommits reads the branch's commits (or tags) and resolves --since.
func listCommits(ctx context.Context, repo, branch string, tags bool, since string, sel *track.Selection) (branchCommits, error) {
	var tc branchCommits
	all, err := gitbuild.Commits(ctx, repo, branch)
	if err != nil {
		return tc, usageErrorf("track: --repo %s --branch %s: %v", repo, branch, err)
	}
	listed := all
	if tags {
		if listed, err = gitbuild.Tags(ctx, repo, branch); err != nil {
			return tc, fmt.Errorf("track: --tags: %w", err)
		}
	}
	for _, c := range all {
		tc.order = append(tc.order, track.Commit(c))
	}
	for _, c := range listed {
		tc.listed = append(tc.listed, track.Commit(c))
	}
	if since != "" {
		if sel.Since, err = gitbuild.Resolve(ctx, repo, since); err != nil {
			return tc, usageErrorf("track: --since: %v", err)
		}
	}
	return tc, nil
}

// referenceBuild is lab track --reference's build: an executable's path
// as it is, else a ref of the repository, built once (cached).
func (r *repoFlags) referenceBuild(ctx context.Context, ref string) (path, label, sha string, err error) {
	if st, err := os.Stat(ref); err == nil && st.Mode().IsRegular() {
		abs, err := filepath.Abs(ref)
		return abs, abs, "", err
	}
	bins := []lab.Binary{{Name: lab.ReferenceVariant, Ref: ref}}
	if err := r.buildRefs(ctx, nil, bins); err != nil {
		return "", "", "", fmt.Errorf("track --reference: %w", err)
	}
	return bins[0].Path, fmt.Sprintf("%s (%s)", ref, history.ShortCommit(bins[0].Commit)), bins[0].Commit, nil
}
