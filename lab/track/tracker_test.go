package track

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/history"
	"github.com/pgrst-lab/pgrst-lab/lab/history/historytest"
)

// The loop builds and measures each commit oldest first, gives the
// variant each build, skips a commit whose build or run fails (and names
// it in the error at the end), and plans around the stored runs built
// with the same command.
func TestTrackerLoop(t *testing.T) {
	cs := commits(3)
	e := &lab.Experiment{Name: "track"}
	if err := OneVariant(e); err != nil || len(e.Variants) != 1 || e.Variants[0].Name != Variant {
		t.Fatalf("OneVariant: %v %+v", err, e.Variants)
	}
	var out bytes.Buffer
	var measured []string
	tr := &Tracker{Experiment: e, Repo: "/src/postgrest", Command: "cabal build", Order: cs, Out: &out,
		Build: func(_ context.Context, c Commit, progress func(string)) (Build, error) {
			progress("step")
			if c.SHA == cs[1].SHA {
				return Build{}, errors.New("no ghc")
			}
			return Build{Path: "/cache/" + c.SHA[:1], Command: "cabal build"}, nil
		},
		Measure: func(_ context.Context, c Commit) error {
			measured = append(measured, e.Variants[0].Binary+" "+e.Variants[0].Description)
			if c.SHA == cs[2].SHA {
				return errors.New("not ready")
			}
			return nil
		},
		Runs: func(context.Context) ([]history.Run, error) { return nil, nil },
	}
	err := tr.Track(context.Background(), cs)
	if err == nil || !strings.Contains(err.Error(), "2 of 3 commits failed") || !strings.Contains(err.Error(), "bbbbbbb (commit b): no ghc") ||
		!strings.Contains(err.Error(), "ccccccc (commit c): run: not ready") {
		t.Errorf("error %v", err)
	}
	if want := "/cache/a aaaaaaa (commit a), built with `cabal build`,/cache/c ccccccc (commit c), built with `cabal build`"; strings.Join(measured, ",") != want {
		t.Errorf("measured %q, want %q", measured, want)
	}
	for _, want := range []string{"commit 1/3 aaaaaaa (commit a): building…", "  build step\n", "commit 2/3 bbbbbbb (commit b): the build failed", "track: 1 of 3 measured in"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}

	run := &lab.Run{Variants: []lab.VariantInfo{{Name: Variant, Description: "aaaaaaa (commit a), built with `cabal build`"}}}
	tr.Note(run, cs[0])
	if b := run.Variants[0].Build; b.Commit != cs[0].SHA || b.Repo != "/src/postgrest" || len(run.Experiment.Variants) != 1 {
		t.Errorf("noted %+v, experiment %+v", b, run.Experiment.Variants)
	}
	tr.Runs = func(context.Context) ([]history.Run, error) { return []history.Run{{Run: run}}, nil }
	p, err := tr.Plan(context.Background(), cs, Selection{})
	if err != nil || shas(p.Measured) != "a" || shas(p.Measure) != "bc" {
		t.Errorf("plan: measured %s, to measure %s, %v", shas(p.Measured), shas(p.Measure), err)
	}
	tr.Command = "nix-build"
	if p, _ := tr.Plan(context.Background(), cs, Selection{}); shas(p.Measure) != "abc" {
		t.Errorf("another build command measures all again: %s", shas(p.Measure))
	}
	var se *SelectionError
	if _, err := tr.Plan(context.Background(), cs, Selection{Since: "nosuch"}); !errors.As(err, &se) {
		t.Errorf("a since not listed: %v, want a *SelectionError", err)
	}
}

// Alert is given the whole series' history once, after the last commit
// (not after each), and its error joins the commits' failures; with
// nothing to measure, Changes gives it the history too.
func TestTrackerAlertsOnceAtTheEnd(t *testing.T) {
	runs := historytest.StepRuns(12, 7, -0.10)
	var order []Commit
	for _, r := range runs { // the variant with the step is the tracked build
		for i := range r.Run.Variants {
			if r.Run.Variants[i].Name == "unix" {
				r.Run.Variants[i].Name = Variant
			}
		}
		for i := range r.Run.Trials {
			if r.Run.Trials[i].Variant == "unix" {
				r.Run.Trials[i].Variant = Variant
			}
		}
		order = append(order, Commit{SHA: r.Run.Variants[0].Build.Commit})
	}
	cs := commits(3)
	var alerts []*history.History
	e := &lab.Experiment{Name: "socket-vs-tcp"}
	if err := OneVariant(e); err != nil {
		t.Fatal(err)
	}
	tr := &Tracker{Experiment: e, Order: order, Metrics: []string{"rate"}, Out: &bytes.Buffer{},
		Build: func(_ context.Context, c Commit, _ func(string)) (Build, error) {
			if c.SHA == cs[2].SHA {
				return Build{}, errors.New("no ghc")
			}
			return Build{Path: "/b"}, nil
		},
		Measure: func(context.Context, Commit) error { return nil },
		Runs:    func(context.Context) ([]history.Run, error) { return runs, nil },
		Alert: func(_ context.Context, h *history.History) error {
			alerts = append(alerts, h)
			return errors.New("webhook down")
		},
	}
	err := tr.Track(context.Background(), cs)
	if len(alerts) != 1 || alerts[0].Runs != 12 || len(alerts[0].Alertable()) != 1 {
		t.Fatalf("%d alert calls, want one with the step", len(alerts))
	}
	if err == nil || !strings.Contains(err.Error(), "1 of 3 commits failed") || !strings.Contains(err.Error(), "webhook down") {
		t.Errorf("error %v: want the failed commit and the alert's error", err)
	}
	if err := tr.Changes(context.Background()); len(alerts) != 2 || err == nil {
		t.Errorf("Changes: %d alert calls, %v", len(alerts), err)
	}
}

// --reference: the reference is the baseline with the file's settings,
// the commit's build beside it gets each build; Note marks the build's
// commit on the tracked variant only and keeps the reference in the
// recorded experiment, so that runs beside one reference are one series.
func TestTrackerWithReference(t *testing.T) {
	e := &lab.Experiment{Name: "binaries", Variants: []lab.Variant{
		{Name: "release", Baseline: true, PostgREST: map[string]string{"db-pool": "10"}}, {Name: "branch"}}}
	if err := WithReference("/cache/ref/postgrest", "v14.0 (abc1234)")(e); err != nil {
		t.Fatal(err)
	}
	if len(e.Variants) != 2 || e.Variants[0].Name != Reference || !e.Variants[0].Baseline || e.Variants[0].Binary != "/cache/ref/postgrest" ||
		e.Variants[1].Name != Variant || e.Variants[1].Baseline || e.Variants[1].PostgREST["db-pool"] != "10" {
		t.Fatalf("variants %+v", e.Variants)
	}
	e.Variants[1].PostgREST["db-pool"] = "5"
	if e.Variants[0].PostgREST["db-pool"] != "10" {
		t.Errorf("the two variants share their settings' map")
	}
	cs := commits(1)
	tr := &Tracker{Experiment: e, Repo: "/src/postgrest", Order: cs,
		Build: func(context.Context, Commit, func(string)) (Build, error) {
			return Build{Path: "/cache/a", Command: "x"}, nil
		},
		Measure: func(context.Context, Commit) error { return nil },
		Runs:    func(context.Context) ([]history.Run, error) { return nil, nil }, Out: &bytes.Buffer{}}
	if err := tr.Track(context.Background(), cs); err != nil {
		t.Fatal(err)
	}
	if e.Variants[1].Binary != "/cache/a" || e.Variants[0].Binary != "/cache/ref/postgrest" {
		t.Errorf("after the loop: reference %q, build %q", e.Variants[0].Binary, e.Variants[1].Binary)
	}
	run := &lab.Run{Variants: []lab.VariantInfo{{Name: Reference}, {Name: Variant}}, Experiment: lab.Experiment{Variants: e.Variants}}
	tr.Note(run, cs[0])
	if run.Variants[0].Build.Commit != "" || run.Variants[1].Build.Commit != cs[0].SHA {
		t.Errorf("builds %+v", run.Variants)
	}
	if v := run.Experiment.Variants; len(v) != 2 || v[0].Name != Reference || v[0].Binary != "/cache/ref/postgrest" || v[1].Binary != "(the commit's build)" {
		t.Errorf("recorded variants %+v", v)
	}
	if err := WithReference("/x", "y")(&lab.Experiment{Name: "empty"}); err == nil {
		t.Errorf("an experiment without variants: no error")
	}
}
