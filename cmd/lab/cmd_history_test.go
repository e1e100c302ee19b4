package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/record"
)

// historyRepo makes a git repository of n empty commits whose dates go
// backwards (only the graph orders them) and returns it with the commits,
// oldest first.
func historyRepo(t *testing.T, n int) (string, []string) {
	t.Helper()
	repo := t.TempDir()
	git := func(env []string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Env = append(cmd.Environ(), env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git(nil, "init", "-q", "-b", "main")
	var commits []string
	for i := range n {
		date := time.Date(2026, 6, 30, 12, 0, 0, 0, time.UTC).Add(-time.Duration(i) * 24 * time.Hour).Format(time.RFC3339)
		git([]string{"GIT_AUTHOR_DATE=" + date, "GIT_COMMITTER_DATE=" + date}, "commit", "-q", "--allow-empty", "-m", "c")
		commits = append(commits, git(nil, "rev-parse", "HEAD"))
	}
	return repo, commits
}

// historyResults writes one run per commit under res/socket-vs-tcp/, unix
// at rates[i] for commits[i]; the runs ran in the order ranAt (run of
// commit i started on day ranAt[i]).
func historyResults(t *testing.T, res string, commits []string, rates []float64, ranAt []int) {
	t.Helper()
	for i, c := range commits {
		started := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC).Add(time.Duration(ranAt[i]) * 24 * time.Hour)
		dir := resultDir(t, filepath.Join(res, "socket-vs-tcp", started.Format("20060102-150405")), rates[i], uint64(i+1), started)
		run, err := record.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for j := range run.Variants {
			run.Variants[j].Build = lab.Build{Commit: c, Version: "13.0.0"}
		}
		if err := record.Write(dir, run); err != nil {
			t.Fatal(err)
		}
	}
}

func TestHistoryCommand(t *testing.T) {
	repo, commits := historyRepo(t, 10)
	rates := []float64{2600, 2600, 2600, 2600, 2600, 2600, 2600, 2600, 2600, 2300} // the newest commit regressed
	ranAt := []int{3, 0, 1, 2, 5, 4, 6, 8, 7, 9}                                   // not in commit order
	res := t.TempDir()
	historyResults(t, res, commits, rates, ranAt)
	os.MkdirAll(filepath.Join(res, "socket-vs-tcp", "broken"), 0o755)
	page := filepath.Join(res, "trend.html")
	out, errOut, err := reportLab(t, "history", "--results", res, "--repo", repo, "--html", page, "--gate=3%", "socket-vs-tcp")
	if err == nil || exitCode(err) != 3 {
		t.Fatalf("err %v (exit %d), want the gate's exit code 3\n%s", err, exitCode(err), out)
	}
	if !strings.Contains(errOut, "skipped") || !strings.Contains(errOut, "broken") {
		t.Errorf("stderr %q: want the broken directory reported", errOut)
	}
	for _, want := range []string{"10 run(s), by commit, in git's order of " + repo, "GETSingle / unix / throughput", "gate 3%: FAILED",
		"GETSingle / unix / throughput: -", "wrote " + page} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// Rows in git's order, not the order the runs ran in.
	block := out[strings.Index(out, "GETSingle / unix / throughput"):]
	last := -1
	for _, c := range commits {
		i := strings.Index(block, c[:7])
		if i < last {
			t.Errorf("commit %s listed out of git's order:\n%s", c[:7], block)
		}
		last = i
	}
	b, err := os.ReadFile(page)
	if err != nil || !strings.Contains(string(b), `href="socket-vs-tcp/20261101-090000/report.html"`) {
		t.Errorf("trend page: %v, or no link to a run's report", err)
	}

	// Without the regression, the gate passes.
	res2 := t.TempDir()
	rates[9] = 2600
	historyResults(t, res2, commits, rates, ranAt)
	out, _, err = reportLab(t, "history", "--results", res2, "--repo", repo, "--gate", "socket-vs-tcp")
	if err != nil || !strings.Contains(out, "gate 2%: passed") {
		t.Errorf("no regression: err %v\n%s", err, out)
	}
	t.Log("\n" + out)
}

func TestHistoryCommandErrors(t *testing.T) {
	res := t.TempDir()
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"history", "--results", res, "--gate", "5%", "x"}, 2, "--gate=5%"},
		{[]string{"history", "--results", res, "--by", "commits", "x"}, 2, "want commit, version, time"},
		{[]string{"history", "--results", res, "x"}, 1, "no runs"},
		{[]string{"history", "--results", res, "--repo", res, "x"}, 1, "git rev-list"},
	} {
		_, _, err := reportLab(t, tc.args...)
		if err == nil || exitCode(err) != tc.code || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("lab %v: err %v (exit %d), want exit %d and %q", tc.args, err, exitCode(err), tc.code, tc.want)
		}
	}
}

// TestHistoryFromStore reads the runs lab push stored: the same series
// as from the results directory, IDs the store's.
func TestHistoryFromStore(t *testing.T) {
	uri, _ := storeDB(t)
	repo, commits := historyRepo(t, 6)
	res := t.TempDir()
	historyResults(t, res, commits, []float64{2600, 2600, 2600, 2600, 2600, 2300}, []int{0, 1, 2, 3, 4, 5})
	if out, errOut, err := reportLab(t, "push", "--store", uri, res); err != nil {
		t.Fatalf("push: %v\n%s%s", err, out, errOut)
	}
	t.Setenv("LAB_STORE", uri)
	out, _, err := reportLab(t, "history", "--repo", repo, "--gate=3%", "--metrics", "rate", "socket-vs-tcp")
	if err == nil || exitCode(err) != 3 {
		t.Fatalf("err %v, want the gate's exit 3\n%s", err, out)
	}
	for _, want := range []string{"6 run(s), by commit", "GETSingle / unix / throughput (req/s): 6 run(s)", commits[5][:7]} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if _, _, err := reportLab(t, "history", "nope"); err == nil || !strings.Contains(err.Error(), "no runs") {
		t.Errorf("unknown experiment: %v", err)
	}
}

// TestHistoryAck: lab history over a store prints each change point's id;
// lab history ack records it with a note, and lab history marks it then;
// an id that names no change point is refused.
func TestHistoryAck(t *testing.T) {
	uri, _ := storeDB(t)
	repo, commits := historyRepo(t, 12)
	res := t.TempDir()
	rates := []float64{2600, 2600, 2600, 2600, 2600, 2600, 2300, 2300, 2300, 2300, 2300, 2300}
	historyResults(t, res, commits, rates, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11})
	if out, errOut, err := reportLab(t, "push", "--store", uri, res); err != nil {
		t.Fatalf("push: %v\n%s%s", err, out, errOut)
	}
	t.Setenv("LAB_STORE", uri)
	out, _, err := reportLab(t, "history", "--repo", repo, "--metrics", "rate", "socket-vs-tcp")
	id := regexp.MustCompile(`regression, beyond the runs' MDE [^;]*; id ([0-9a-f]{12})\n`).FindStringSubmatch(out)
	if err != nil || id == nil || strings.Contains(out, "acknowledged") {
		t.Fatalf("want a regression with its id and no acknowledgement: %v\n%s", err, out)
	}
	if _, _, err := reportLab(t, "history", "ack", "0123456789ab", "--note", "x"); err == nil || !strings.Contains(err.Error(), "no change point has this id") {
		t.Errorf("ack of an unknown id: %v", err)
	}
	if out, _, err := reportLab(t, "history", "ack", id[1], "--note", "the pool change, expected"); err != nil ||
		!strings.Contains(out, "acknowledged "+id[1]) || !strings.Contains(out, "socket-vs-tcp / GETSingle / unix / rate, "+commits[5][:7]+".."+commits[6][:7]) {
		t.Fatalf("ack: %v\n%s", err, out)
	}
	out, _, err = reportLab(t, "history", "--repo", repo, "--metrics", "rate", "socket-vs-tcp")
	if err != nil || !strings.Contains(out, "regression (acknowledged) ───") || !strings.Contains(out, "id "+id[1]+"; acknowledged ") ||
		!strings.Contains(out, ": the pool change, expected") {
		t.Errorf("lab history after the ack: want the mark and the note: %v\n%s", err, out)
	}
}
