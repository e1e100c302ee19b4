package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/gitbuild"
	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
)

const bisectCommits, bisectStepAt = 16, 11 // commit 11 (of 1..16) adds the pre-request function

// bisectTestExperiment is a step's run in the test: GETSingle, six rounds
// of 1 s, the fewest a paired test decides on. On a CI machine shared with
// other tests (a load of 15 on 2 cores on 2026-12-05) one round in six may
// turn a 3x step round, which at 0.05 (p=0.0625) the test would miss;
// alpha 0.1 lets a step decide despite it (a midpoint that then differs
// from the end at its own level too stays at that level when within a
// third of the change of it: bisect.Tolerance). Such
// a machine disturbs every round, so rounds are not left out for
// interference (their trials would be too few for any verdict).
const bisectTestExperiment = `name = "bisect-test"
title = "GETSingle, six rounds of 0.5 s, for lab bisect's test"
description = "One build's GETSingle; lab bisect makes it three."
scenarios = ["GETSingle"]

[load]
model = "closed"
connections = 10
warmup = "0s"
duration = "500ms"

[trials]
min = 6
max = 6
alpha = 0.1
interference = 1

[[variant]]
name = "build"
baseline = true
`

// TestBisectFindsTheStepCommit: lab bisect over a real repository of 16
// commits, each built (sh build.sh) into a wrapper of the real PostgREST,
// commit 11 on with a pre-request function that spins about 1 ms of
// database CPU. GOOD commit 1, BAD commit 16: it names commit 11 and its
// subject after at most ⌈log2 16⌉ + 1 = 5 midpoints, each measured against
// both ends in one run of 6 paired rounds on CPU per request (the default
// metric; an experiment file of one scenario), and prints each step with
// its ETA and the evidence.
func TestBisectFindsTheStepCommit(t *testing.T) {
	dir := spinningStack(t)
	repo, shas := trackRepo(t, bisectCommits, bisectStepAt)
	exp := filepath.Join(t.TempDir(), "bisect-test.toml")
	if err := os.WriteFile(exp, []byte(bisectTestExperiment), 0o644); err != nil {
		t.Fatal(err)
	}
	// Four steps of 18 trials take longer than runLab's two minutes.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	var stdout, stderr bytes.Buffer
	err := run(ctx, []string{"bisect", gitbuild.Short(shas[0]), shas[bisectCommits-1], "--repo", repo, "--build", "sh build.sh", "--build-env", "LAB_POSTGREST,TRACK_PRE_REQUEST",
		"--dir", dir, "--results", t.TempDir(), "--experiment", exp}, &stdout, &stderr)
	out := stdout.String()
	t.Logf("lab bisect:\n%s\n%s", out, stderr.String())
	if err != nil {
		t.Fatalf("lab bisect: %v", err)
	}
	first := shas[bisectStepAt-1]
	if want := fmt.Sprintf("first commit of the change: %s\n  change %d\n", first, bisectStepAt); !strings.Contains(out, want) {
		t.Errorf("output lacks %q", want)
	}
	m := regexp.MustCompile(`\n(\d+) midpoint measurements \(15 commits after GOOD`).FindStringSubmatch(out)
	if m == nil {
		t.Fatal("no count of midpoint measurements")
	}
	if n, _ := strconv.Atoi(m[1]); n < 1 || n > 5 {
		t.Errorf("%d midpoint measurements, want 1..5", n)
	}
	// Each step's decision names the commit and both comparisons; the
	// progress lines of the second step on carry an ETA.
	step := regexp.MustCompile(`\nstep \d+ \w+ \(change (\d+)\): midpoint vs GOOD [-+][0-9.]+% \(p=[0-9.e-]+\), vs BAD [-+][0-9.]+% \(p=[0-9.e-]+\), BAD vs GOOD \+[0-9.]+% \(p=[0-9.e-]+\), 6 rounds: (old|new) level`)
	steps := step.FindAllStringSubmatch(out, -1)
	if len(steps) != mustAtoi(t, m[1]) {
		t.Errorf("%d step decisions, %s midpoints counted", len(steps), m[1])
	}
	for _, s := range steps {
		if k := mustAtoi(t, s[1]); (k >= bisectStepAt) != (s[2] == "new") {
			t.Errorf("commit %d placed at the %s level", k, s[2])
		}
	}
	if !regexp.MustCompile(`step 2/\d+ \w+ \(change \d+\): building…, [0-9.ms]+ elapsed, ~[0-9.ms]+ left`).MatchString(out) {
		t.Errorf("no ETA on step 2's progress line")
	}
	if !strings.Contains(out, "evidence: cpu (server + database CPU, µs/req)") {
		t.Errorf("no evidence table")
	}
}

func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// lab bisect's command line: two refs, the repository, a known metric,
// the older ref first; each mistake a usage error (exit 2) saying what to
// give, before any stack or build.
func TestBisectUsage(t *testing.T) {
	r := labtest.NewGitRepo(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"main"}, "give two refs, GOOD BAD (the older first), not 1 arguments"},
		{[]string{"v1.2.0", "main"}, "give the repository: --repo DIR"},
		{[]string{"v1.2.0", "main", "--repo", r.Dir, "--metric", "cpus"}, `--metric "cpus": no such metric (did you mean "cpu"?)`},
		{[]string{"main", "v1.2.0", "--repo", r.Dir}, "is not an ancestor of v1.2.0 (" + gitbuild.Short(r.Release) + "): give the older commit first"},
		{[]string{"v1.2.0", "nosuch", "--repo", r.Dir}, `no commit "nosuch"`},
	} {
		_, err := runLab(t, append([]string{"bisect"}, c.args...)...)
		if err == nil || exitCode(err) != 2 || !strings.Contains(err.Error(), c.want) {
			t.Errorf("lab bisect %v: %v (exit %d), want a usage error with %q", c.args, err, exitCode(err), c.want)
		}
	}
}
