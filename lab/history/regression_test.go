package history_test

import (
	"github.com/pgrst-lab/pgrst-lab/lab/history/historytest"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab/history"
)

func regressions(t *testing.T, runs []history.Run, pct float64) []history.Regression {
	t.Helper()
	h, err := history.Analyse("socket-vs-tcp", runs, history.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return history.Regressions(h, pct)
}

func TestRegressionsNewestRunRegresses(t *testing.T) {
	// The newest of 10 runs is 8 % slower: too late for a change point
	// (a segment of one), caught by the level rule.
	runs := historytest.StepRuns(10, 9, -0.08)
	f := regressions(t, runs, 3)
	var names []string
	for _, x := range f {
		names = append(names, x.Series)
		if x.Newest.ID != runs[9].ID || x.Previous.ID != runs[8].ID {
			t.Errorf("regression %s", x)
		}
	}
	got := strings.Join(names, ", ")
	for _, want := range []string{"GETSingle / unix / throughput", "GETSingle / unix / latency p99", "GETSingle / unix / server + database CPU"} {
		if !strings.Contains(got, want) {
			t.Errorf("fired on %q, want %q", got, want)
		}
	}
	if strings.Contains(got, "tcp") {
		t.Errorf("fired on tcp: %q", got)
	}
	if f := regressions(t, runs, 20); len(f) != 0 {
		t.Errorf("threshold 20%%: fired %v", f)
	}
}

func TestRegressionsQuiet(t *testing.T) {
	for name, runs := range map[string][]history.Run{
		"flat":             historytest.StepRuns(10, 99, 0),
		"improvement":      historytest.StepRuns(10, 9, +0.08),
		"older regression": historytest.StepRuns(12, 6, -0.10), // already at the new level: the gate fired back then
	} {
		if f := regressions(t, runs, 3); len(f) != 0 {
			t.Errorf("%s: fired %v", name, f)
		}
	}
}

// TestOrderByCommitGit places runs in a real repository's topological
// order, which differs from the order they ran in; a run of a commit the
// repository lacks is set apart.
func TestOrderByCommitGit(t *testing.T) {
	repo := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q", "-b", "main")
	var commits []string
	for i, msg := range []string{"a", "b", "c", "d"} {
		// Commit dates go backwards: only the graph orders them.
		date := "2026-01-0" + string(rune('9'-i)) + "T12:00:00Z"
		cmd := exec.Command("git", "-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", msg)
		cmd.Env = append(cmd.Environ(), "GIT_COMMITTER_DATE="+date, "GIT_AUTHOR_DATE="+date)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("commit: %v\n%s", err, out)
		}
		commits = append(commits, git("rev-parse", "HEAD"))
	}
	order := strings.Fields(git("rev-list", "--topo-order", "--reverse", "HEAD"))
	// Measured in the order d, a, c, (unknown), b.
	ran := []string{commits[3], commits[0][:10], commits[2], "deadbeefdeadbeef", commits[1]}
	var runs []history.Run
	for i, c := range ran {
		runs = append(runs, historytest.Run(historytest.Synth{Rate: 2600, Commit: c, Day: i}, uint64(i+1)))
	}
	h, err := history.Analyse("x", runs, history.Options{Commits: order, Repo: filepath.Base(repo)})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range h.Groups[0].Runs {
		got = append(got, e.Commit[:7])
	}
	want := []string{commits[0][:7], commits[1][:7], commits[2][:7], commits[3][:7]}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("order %v, want git's %v", got, want)
	}
	if len(h.Apart) != 1 || h.Apart[0].Commit != "deadbeefdeadbeef" || !strings.Contains(strings.Join(h.Warnings, " "), "does not have") {
		t.Errorf("apart %+v, warnings %q", h.Apart, h.Warnings)
	}
	if h.By != history.ByCommit || !strings.Contains(h.OrderDesc(), "git's order") {
		t.Errorf("by %q: %s", h.By, h.OrderDesc())
	}
}
