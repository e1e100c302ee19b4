package track

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/pgrst-lab/pgrst-lab/internal/textsafe"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/changepoint"
	"github.com/pgrst-lab/pgrst-lab/lab/history"
)

// Variant names the variant of a track run that is the commit's build;
// Reference, the fixed build it is measured beside (--reference).
const (
	Variant   = lab.TrackedVariant
	Reference = lab.ReferenceVariant
)

// Build is a commit's binary, as a Builder made it.
type Build struct {
	Path    string // the binary
	Command string // the command that built it
	Cached  bool   // found in the cache, not built now
}

// Builder builds a commit (gitbuild, cached by commit and command),
// reporting its progress lines.
type Builder func(ctx context.Context, c Commit, progress func(line string)) (Build, error)

// Measurer runs the experiment once, its one variant the commit's build
// (already in Tracker.Experiment), and stores the run, having called
// Tracker.Note on its record. A run interrupted by ctx is not stored.
type Measurer func(ctx context.Context, c Commit) error

// Series lists the stored runs of the tracked series: this machine's
// runs of the experiment.
type Series func(ctx context.Context) ([]history.Run, error)

// Tracker is `lab track`'s measuring loop: for each commit, oldest first,
// build it, run the experiment with that build and store the run, then
// print the change points of the series so far. The builds, the runs and
// the store come in as ports that cmd/lab wires to gitbuild, lab/session
// and the store.
type Tracker struct {
	Experiment *lab.Experiment // its one variant gets each commit's build
	Repo       string          // the repository the commits are of
	Command    string          // the build command; "" for the default
	Order      []Commit        // the branch's commits, oldest first: the series' order
	Metrics    []string        // the metrics whose change points are printed
	// ReferenceSHA is the commit of the --reference build, when it was
	// built from the repository: Note records it on its variant.
	ReferenceSHA string
	MaxP         float64 // the significance a change point needs (0: changepoint's default)

	Build   Builder
	Measure Measurer
	Runs    Series
	// Alert, when set, is given the history of the whole series once the
	// loop is done (or when nothing was to measure): it sends the alerts
	// of its new change points (package report/alert).
	Alert func(ctx context.Context, h *history.History) error
	Out   io.Writer // progress, failures and change points
}

// OneVariant makes an experiment's variants the one the builds fill in
// (an edit for session.Load).
func OneVariant(e *lab.Experiment) error {
	e.Variants = []lab.Variant{{Name: Variant, Baseline: true, Description: "the commit's build"}}
	return nil
}

// WithReference makes an experiment's variants the fixed reference build
// at path (the baseline; label says which it is, e.g. "v14.0
// (abc1234)") and the commit's build beside it, both with the settings of
// the file's baseline variant: lab track --reference, whose run per
// commit is a comparison (a duet in the bundled binaries) and whose
// series is the ratio build ÷ reference (package history).
func WithReference(path, label string) func(*lab.Experiment) error {
	return func(e *lab.Experiment) error {
		if len(e.Variants) == 0 {
			return fmt.Errorf("track --reference: experiment %s has no variant to take the settings from", e.Name)
		}
		tmpl := e.BaselineVariant()
		e.Variants = []lab.Variant{tmpl.WithBinary(Reference, path, "the reference build, "+label, true),
			tmpl.WithBinary(Variant, "", "the commit's build", false)}
		return nil
	}
}

// runs are the stored runs of the series of this tracker's shape: its
// tracked build alone, or beside a reference (--reference). Other runs of
// the experiment (lab ab's of binaries, in the same store) are no point
// of it.
func (t *Tracker) runs(ctx context.Context) ([]history.Run, error) {
	runs, err := t.Runs(ctx)
	if err != nil {
		return nil, err
	}
	beside := slices.ContainsFunc(t.Experiment.Variants, func(v lab.Variant) bool { return v.Name == Reference })
	return slices.DeleteFunc(runs, func(r history.Run) bool {
		return r.Run == nil || !history.HasVariant(r.Run, Variant) || history.AgainstReference(r.Run) != beside
	}), nil
}

// tracked is the experiment's variant that gets each commit's build.
func (t *Tracker) tracked() *lab.Variant {
	for i := range t.Experiment.Variants {
		if t.Experiment.Variants[i].Name == Variant {
			return &t.Experiment.Variants[i]
		}
	}
	return &t.Experiment.Variants[0]
}

// Plan selects the commits to measure of commits: those with no stored
// run of the commit built with the same command (when one is given; the
// default depends on the worktree). A selection that cannot be applied
// is a *SelectionError.
func (t *Tracker) Plan(ctx context.Context, commits []Commit, sel Selection) (Plan, error) {
	runs, err := t.runs(ctx)
	if err != nil {
		return Plan{}, err
	}
	measured := map[string]bool{}
	for _, r := range runs {
		if t.Command == "" || slices.ContainsFunc(r.Run.Variants, func(v lab.VariantInfo) bool {
			return v.Name == Variant && strings.Contains(v.Description, "`"+t.Command+"`")
		}) {
			measured[strings.ToLower(lab.MeasuredBuild(r.Run, Variant).Commit)] = true
		}
	}
	return Select(commits, func(sha string) bool { return measured[sha] }, sel)
}

// Note completes the record of commit c's run: the build's repository and
// commit, and one edition of the experiment for every commit (its hash
// groups a history): the build is the variant's, in the record.
func (t *Tracker) Note(run *lab.Run, c Commit) {
	for i := range run.Variants {
		switch b := &run.Variants[i].Build; {
		case run.Variants[i].Name == Variant:
			b.Repo, b.Ref, b.Commit = t.Repo, c.SHA, c.SHA
		case run.Variants[i].Name == Reference && t.ReferenceSHA != "":
			b.Repo, b.Ref, b.Commit = t.Repo, t.ReferenceSHA, t.ReferenceSHA
		}
	}
	build := lab.Variant{Name: Variant, Baseline: true, Binary: "(the commit's build)", Description: "the commit's build"}
	if i := slices.IndexFunc(run.Experiment.Variants, func(v lab.Variant) bool { return v.Name == Reference }); i >= 0 {
		// Beside a reference: the same reference's runs are one series.
		ref := run.Experiment.Variants[i]
		build.Baseline = false
		run.Experiment.Variants = []lab.Variant{{Name: Reference, Baseline: true, Binary: ref.Binary, Description: ref.Description}, build}
		return
	}
	run.Experiment.Variants = []lab.Variant{build}
}

// Track builds, runs and stores each commit of cs, oldest first. A commit
// whose build or run fails is reported and skipped, and Track's error
// lists them at the end; an interrupted one (ctx) stops the loop.
func (t *Tracker) Track(ctx context.Context, cs []Commit) error {
	var eta ETA
	var failed []string
	var last *history.History
	start := time.Now()
	for i, c := range cs {
		line := func(phase string, builds int) {
			fmt.Fprintln(t.Out, eta.Line(i+1, len(cs), c, phase, time.Since(start), builds, len(cs)-i))
		}
		line("building", len(cs)-i)
		b0 := time.Now()
		b, err := t.Build(ctx, c, func(s string) { textsafe.Fprintf(t.Out, "  build %s\n", s) })
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			fmt.Fprintf(t.Out, "commit %d/%d %s: the build failed (the log's tail follows at the end); next commit\n", i+1, len(cs), c.Label())
			failed = append(failed, fmt.Sprintf("commit %s: %v", c.Label(), err))
			continue
		}
		eta.Built(time.Since(b0), b.Cached)
		line("running", len(cs)-i-1)
		v := t.tracked()
		v.Binary, v.Description = b.Path, fmt.Sprintf("%s, built with `%s`", c.Label(), b.Command)
		r0 := time.Now()
		err = t.Measure(ctx, c)
		if ctx.Err() != nil {
			return fmt.Errorf("track: interrupted at commit %s (not stored): %w", c.Label(), ctx.Err())
		}
		if err != nil {
			textsafe.Fprintf(t.Out, "commit %d/%d %s: the run failed: %v; next commit\n", i+1, len(cs), c.Label(), err)
			failed = append(failed, fmt.Sprintf("commit %s: run: %v", c.Label(), err))
			continue
		}
		eta.Ran(time.Since(r0))
		h, err := t.changes(ctx)
		if err != nil {
			return err
		}
		last = h
	}
	fmt.Fprintf(t.Out, "track: %d of %d measured in %s\n", len(cs)-len(failed), len(cs), time.Since(start).Round(time.Second))
	var alertErr error
	if last != nil && t.Alert != nil {
		alertErr = t.Alert(ctx, last)
	}
	if len(failed) > 0 {
		return errors.Join(fmt.Errorf("track: %d of %d commits failed:\n%s", len(failed), len(cs), strings.Join(failed, "\n")), alertErr)
	}
	return alertErr
}

// Changes prints the change points of the experiment's series, the
// commits in the branch's order, and gives them to Alert: what lab track
// does when there is nothing to measure.
func (t *Tracker) Changes(ctx context.Context) error {
	h, err := t.changes(ctx)
	if err != nil || h == nil || t.Alert == nil {
		return err
	}
	return t.Alert(ctx, h)
}

// changes prints the change points of the series so far and returns its
// history (nil when no run is stored).
func (t *Tracker) changes(ctx context.Context) (*history.History, error) {
	runs, err := t.runs(ctx)
	if err != nil || len(runs) == 0 {
		return nil, err
	}
	order := make([]string, len(t.Order))
	for i, c := range t.Order {
		order[i] = c.SHA
	}
	h, err := history.Analyse(t.Experiment.Name, runs, history.Options{By: history.ByCommit, Commits: order, Repo: t.Repo, Metrics: t.Metrics,
		Detect: changepoint.Options{MaxP: t.MaxP}})
	if err != nil {
		return nil, err
	}
	lines := history.ChangeLines(h)
	runsWord := "runs"
	if h.Runs == 1 {
		runsWord = "run"
	}
	fmt.Fprintf(t.Out, "change points over %d %s: %d\n", h.Runs, runsWord, len(lines))
	for _, l := range lines {
		fmt.Fprintf(t.Out, "  %s\n", l)
	}
	return h, nil
}
