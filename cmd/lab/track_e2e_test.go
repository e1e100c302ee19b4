package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/gitbuild"
	"github.com/pgrst-lab/pgrst-lab/host/reconcile"
	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/internal/pgburn"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/store"
)

const trackCommits, trackStepAt = 10, 6 // commit 6 (of 1..10) brings the step: 5 runs either side

// trackBuild writes a wrapper of the real PostgREST ($LAB_POSTGREST when
// built) where cabal would put it; with the file slow in the commit, the
// wrapper names a pre-request function (PGRST_ variables override the
// config file) that spins about a millisecond of database CPU
// (lab calibrate's database injection, sized by the test): three to four
// times the database CPU of a plain GETSingle here, a step a machine whose
// speed swings by half between commits does not hide. (Prepared
// statements off, the step before, was about 1.6 times and was lost in
// such a swing in CI on 2026-12-05.)
const trackBuild = `#!/bin/sh
set -e
out=dist-newstyle/build/x86_64-linux/ghc-9.6/postgrest-0/x/postgrest/build/postgrest
mkdir -p "$out"
pre=""
if [ -f slow ]; then pre="PGRST_DB_PRE_REQUEST='$TRACK_PRE_REQUEST' "; fi
printf '#!/bin/sh\n%sexec "%s" "$@"\n' "$pre" "${LAB_POSTGREST%%:*}" > "$out/postgrest"
chmod +x "$out/postgrest"
` + labtest.BuildEnvProbe

// spinningStack is a direct stack of the real PostgREST with the fixture
// loaded and, made after it (loading the fixture replaces the database),
// the pre-request function that spins about 1 ms of database CPU, named
// by $TRACK_PRE_REQUEST for trackBuild's slow wrappers; builds are cached
// in a temporary directory.
func spinningStack(t *testing.T) string { return spinningStackAt(t, 1000) }

// spinningStackAt is spinningStack with the function spinning about us
// microseconds.
func spinningStackAt(t *testing.T, us int) string {
	dir := directStack(t, "--postgrest", labtest.PostgREST(t))
	t.Setenv("XDG_CACHE_HOME", labtest.SharedDir(t))
	if out, err := runLab(t, "fixture", "chinook", "--dir", dir); err != nil {
		t.Fatalf("fixture: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	burn, err := reconcile.NewBurner(ctx, stackStatus(t, dir).AdminURI)
	if err != nil {
		t.Fatal(err)
	}
	if err := burn.Set(ctx, us); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TRACK_PRE_REQUEST", pgburn.B)
	return dir
}

// trackRepo makes a repository of n commits on main, the kth of which
// adds the file slow; it returns the commits oldest first.
func trackRepo(t *testing.T, n, k int) (string, []string) {
	dir := t.TempDir()
	trackGit(t, dir, "init", "-q", "-b", "main")
	var shas []string
	for i := 1; i <= n; i++ {
		files := map[string]string{"build.sh": trackBuild, ".gitignore": "dist-newstyle/\n", "CHANGES": strings.Repeat("a change\n", i)}
		if i >= k {
			files["slow"] = "a pre-request function that spins\n"
		}
		shas = append(shas, trackCommit(t, dir, fmt.Sprintf("change %d", i), files))
	}
	return dir, shas
}

// trackCommit writes files in the repository dir and commits them.
func trackCommit(t *testing.T, dir, subject string, files map[string]string) string {
	t.Helper()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	trackGit(t, dir, "add", "-A")
	trackGit(t, dir, "commit", "-q", "-m", subject)
	return trackGit(t, dir, "rev-parse", "HEAD")
}

func trackGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=lab", "GIT_AUTHOR_EMAIL=lab@example.com",
		"GIT_COMMITTER_NAME=lab", "GIT_COMMITTER_EMAIL=lab@example.com", "GIT_CONFIG_GLOBAL=/dev/null")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// TestTrackFindsTheStepCommit: lab track over a real repository of ten
// commits, each built into a wrapper of the real PostgREST and measured
// by real runs (4 rounds of 1.5 s: the fewest with an MDE, which an alert
// needs the change to exceed), stored in a real PostgreSQL store;
// commit 6 adds a pre-request function that spins about 1 ms. Each commit gets one stored run
// naming its SHA, the change point (p < 0.01: ten runs are too few
// for the default 0.001 on a busy machine) of database CPU per request is at
// commit 6, a regression, and a second lab track measures nothing. The
// change point is sent once to a webhook on loopback and written as an
// issue body (--alert-webhook, --alert-issue), not again by the second
// lab track, and lab history ack acknowledges it by the id sent. lab
// history reads the ten stored runs as one series by commit and draws
// them on its trend page. (This is the end-to-end test of a step found in
// real stored runs; lab history's change points, MDEs and ids on stored
// runs are TestHistoryFromStore's and TestHistoryAck's, lab run --store's
// TestRunHidesPlantedSecrets'.)
func TestTrackFindsTheStepCommit(t *testing.T) {
	dir := spinningStack(t)
	storeURI := labtest.NewDB(t).UnixURI("postgres")
	repo, shas := trackRepo(t, trackCommits, trackStepAt)
	hook := newHookReceiver(t)
	issue := filepath.Join(t.TempDir(), "issue.md")
	envLog := labtest.BuildEnvLog(t)
	t.Setenv("BUILD_ENV_LOG", envLog)
	t.Setenv("LAB_TEST_SECRET", "s3cret") // the lab's, never a build's
	args := []string{"track", "--repo", repo, "--build", "sh build.sh", "--build-env", "LAB_POSTGREST,TRACK_PRE_REQUEST,BUILD_ENV_LOG", "--store", storeURI, "--dir", dir, "--results", t.TempDir(),
		"--metrics", "db_cpu", "--max-p", "0.01", "--min-trials", "4", "--max-trials", "4", "--duration", "1s", "--warmup", "0s",
		"--alert-webhook", hook.url, "--alert-issue", issue}
	out, err := runLab(t, args...)
	t.Logf("lab track:\n%s", out)
	if err != nil {
		t.Fatalf("lab track: %v", err)
	}
	if !strings.Contains(out, fmt.Sprintf("%d commits to measure, 0 measured already", trackCommits)) ||
		!strings.Contains(out, fmt.Sprintf("commit %d/%d %s", trackCommits, trackCommits, gitbuild.Short(shas[trackCommits-1]))) {
		t.Errorf("no plan or progress lines")
	}
	if !regexp.MustCompile(`commit 2/\d+ \w+ \(change 2\): building…, [0-9.ms]+ elapsed, ~[0-9.ms]+ left`).MatchString(out) {
		t.Errorf("no ETA on commit 2's progress line")
	}
	// Issue 52, finding 4: every commit's build ran unprivileged, seeing only the allow-list.
	if n := labtest.CheckBuildEnv(t, envLog, gitbuild.BaseEnv, "LAB_POSTGREST", "TRACK_PRE_REQUEST", "BUILD_ENV_LOG"); n != trackCommits {
		t.Errorf("%d builds logged, want %d", n, trackCommits)
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := store.Open(ctx, storeURI)
	if err != nil {
		t.Fatal(err)
	}
	stored, err := s.Runs(ctx, store.Query{Experiment: "track"})
	s.Close()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, r := range stored {
		got[lab.MeasuredBuild(r.Run, "build").Commit]++
	}
	for i, sha := range shas {
		if got[sha] != 1 {
			t.Errorf("commit %d (%s): %d stored runs, want 1 (stored: %v)", i+1, sha, got[sha], got)
		}
	}

	// The last change points printed are over all the runs.
	last := out[strings.LastIndex(out, "change points over"):]
	cp := regexp.MustCompile(`GETSingle / build / [^:]*: ([-+][0-9.]+)% .* in (\w+)\.\.(\w+): regression`).FindStringSubmatch(last)
	if cp == nil {
		t.Fatalf("no regression found in:\n%s", last)
	}
	if before, after := gitbuild.Short(shas[trackStepAt-2]), gitbuild.Short(shas[trackStepAt-1]); cp[2] != before || cp[3] != after {
		t.Errorf("change point in %s..%s, want %s..%s (commit %d)", cp[2], cp[3], before, after, trackStepAt)
	}

	// The change point was sent once, to the webhook and as an issue body.
	sent := hook.bodies()
	if len(sent) != 1 || !strings.Contains(sent[0], `"kind":"regression"`) || !strings.Contains(sent[0], `"metric":"db_cpu"`) ||
		!strings.Contains(sent[0], `"before":"`+shas[trackStepAt-2]+`"`) || !strings.Contains(sent[0], `"after":"`+shas[trackStepAt-1]+`"`) {
		t.Errorf("webhook got %d message(s), want the regression at commit %d:\n%s", len(sent), trackStepAt, strings.Join(sent, "\n"))
	}
	if b, err := os.ReadFile(issue); err != nil || !strings.Contains(string(b), "| GETSingle / build / database CPU |") ||
		!strings.Contains(string(b), "`"+gitbuild.Short(shas[trackStepAt-1])+"`") {
		t.Errorf("issue body: %v\n%s", err, b)
	}
	if strings.Contains(out, "secret-token") {
		t.Errorf("lab track printed the webhook's secret path")
	}
	id := regexp.MustCompile(`"id":"([0-9a-f]+)"`).FindStringSubmatch(strings.Join(sent, ""))

	// lab history reads lab track's stored runs: one series of the ten
	// commits, drawn on the trend page.
	page := filepath.Join(t.TempDir(), "trend.html")
	hout, err := runLab(t, "history", "track", "--store", storeURI, "--metrics", "db_cpu", "--html", page)
	if err != nil || !strings.Contains(hout, fmt.Sprintf("%d run(s), by commit", trackCommits)) ||
		!strings.Contains(hout, fmt.Sprintf("GETSingle / build / database CPU (µs/req): %d run(s)", trackCommits)) {
		t.Errorf("lab history over lab track's store: %v\n%s", err, hout)
	}
	if html, err := os.ReadFile(page); err != nil || !strings.Contains(string(html), "<svg") {
		t.Errorf("lab history's trend page lacks the chart: %v", err)
	}

	out, err = runLab(t, args...)
	if err != nil || !strings.Contains(out, fmt.Sprintf("0 commits to measure, %d measured already", trackCommits)) || strings.Contains(out, "building") {
		t.Errorf("second lab track: %v\n%s", err, out)
	}
	if n := len(hook.bodies()); n != 1 || !strings.Contains(out, "0 of 1 change point(s) beyond the MDE sent") {
		t.Errorf("the second lab track sent again: %d message(s)\n%s", n, out)
	}
	if _, err := os.Stat(issue); !os.IsNotExist(err) {
		t.Errorf("the second lab track left the issue body to be filed again: %v", err)
	}
	if id != nil {
		if out, err := runLab(t, "history", "ack", id[1], "--note", "the spinning pre-request function", "--store", storeURI); err != nil ||
			!strings.Contains(out, "acknowledged "+id[1]) {
			t.Errorf("lab history ack: %v\n%s", err, out)
		}
	}

	// A commit whose build fails is reported, with the command and the
	// log's last lines, and fails the exit status; nothing is stored.
	broken := trackCommit(t, repo, "a broken build", map[string]string{"build.sh": "#!/bin/sh\necho 'src/Main.hs:3:1: error: parse error' >&2\nexit 1\n"})
	out, err = runLab(t, args...)
	if err == nil || !strings.Contains(err.Error(), "1 of 1 commits failed:\ncommit "+gitbuild.Short(broken)+" (a broken build)") ||
		!strings.Contains(err.Error(), "parse error") || !strings.Contains(err.Error(), "`sh build.sh`") ||
		!strings.Contains(out, "the build failed") {
		t.Errorf("lab track of a broken commit: %v\n%s", err, out)
	}
}

// hookReceiver is a webhook on loopback (its path a secret, as Slack's)
// that keeps the bodies posted to it.
type hookReceiver struct {
	url string
	mu  sync.Mutex
	got []string
}

func newHookReceiver(t *testing.T) *hookReceiver {
	h := &hookReceiver{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		h.mu.Lock()
		defer h.mu.Unlock()
		h.got = append(h.got, string(b))
	}))
	t.Cleanup(srv.Close)
	h.url = srv.URL + "/services/T0/B0/secret-token"
	return h
}

func (h *hookReceiver) bodies() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.got...)
}
