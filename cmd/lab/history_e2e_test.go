package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/configs"
	"github.com/pgrst-lab/pgrst-lab/host/reconcile"
	"github.com/pgrst-lab/pgrst-lab/host/stack"
	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/internal/pgburn"
	"github.com/pgrst-lab/pgrst-lab/store"
)

// The step starts at run #7, six runs either side: the t-test of the
// change point then has as many runs after the step as before. With four
// after it (ten runs) a CI run once read p = 0.0011 against Otava's 0.001
// for a +104 % step, the runs after it between +60 % and +150 % (a spin
// under other test packages' CPU load varies more than a plain request).
const historyStepRuns, historyStepAt = 12, 7

// historyStepUs is the step: CPU (µs) a pre-request function spins in
// PostgreSQL per request from run #7 on. A run costs about 550-850 µs a
// request here, so the step is well over +100 %: far beyond the drift a
// busy CI machine puts into CPU per request over the test's runs (540 →
// 866 µs over six runs on 2026-12-05, while other test packages ran, which
// buried a 400 µs step: no change point).
const historyStepUs = 1200

// Four trials a run: the fewest with which two runs' unpaired test can
// reach p < 0.05 at all, so that each run has an MDE to compare the step
// with (with three, no change is detectable and the MDE is unknown).
const historyStepExperiment = `name = "history-step"
scenarios = ["GETSingle"]
[load]
model = "closed"
connections = 4
duration = "1500ms"
warmup = "0s"
[trials]
min = 4
max = 4
[[variant]]
name = "current"
`

// TestHistoryFindsAStepInRealRuns: twelve real runs of real PostgREST, each
// stored in a real PostgreSQL store by lab run --store, with a step the
// test puts in from run 7 on: the server's own config calls a pre-request
// function that spins historyStepUs of CPU in PostgreSQL per request, as a
// slower build would cost, with the experiment unchanged.
// lab history over the store finds the change point at run 7, a
// regression beyond the runs' MDE, and draws it on the trend page. CPU
// per request, not throughput: it is the work a request costs, which a
// busy machine (a CI runner, parallel test packages) barely moves, while
// throughput there swings by half.
func TestHistoryFindsAStepInRealRuns(t *testing.T) {
	dir := directStack(t, "--postgrest", labtest.PostgREST(t))
	storeURI := labtest.NewDB(t).UnixURI("postgres")
	exp := filepath.Join(t.TempDir(), "history-step.toml")
	if err := os.WriteFile(exp, []byte(historyStepExperiment), 0o644); err != nil {
		t.Fatal(err)
	}
	results := t.TempDir()
	for i := 1; i <= historyStepRuns; i++ {
		if i == historyStepAt {
			spinBeforeEachRequest(t, dir, historyStepUs)
		}
		if out, err := runLab(t, "run", exp, "--dir", dir, "--results", results, "--store", storeURI); err != nil {
			t.Fatalf("run %d: %v\n%s", i, err, out)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := store.Open(ctx, storeURI)
	if err != nil {
		t.Fatal(err)
	}
	stored, err := s.Runs(ctx, store.Query{Experiment: "history-step"})
	s.Close()
	if err != nil || len(stored) != historyStepRuns {
		t.Fatalf("the store holds %d runs (%v), want %d", len(stored), err, historyStepRuns)
	}
	page := filepath.Join(t.TempDir(), "trend.html")
	out, err := runLab(t, "history", "history-step", "--store", storeURI, "--by", "time", "--metrics", "cpu", "--html", page)
	if err != nil {
		t.Fatalf("history: %v\n%s", err, out)
	}
	t.Logf("lab history:\n%s", out)
	cp := regexp.MustCompile(`at #(\d+): ([-+][0-9.]+)%.*: (regression|improvement)(, beyond the runs' MDE)?`).FindStringSubmatch(out)
	if cp == nil {
		t.Fatalf("no change point in the CPU-per-request series:\n%s", out)
	}
	if cp[1] != fmt.Sprint(historyStepAt) || cp[3] != "regression" || cp[4] == "" {
		t.Errorf("change point %q, want a regression at #%d beyond the MDE", cp[0], historyStepAt)
	}
	html, err := os.ReadFile(page)
	if err != nil || !strings.Contains(string(html), "<svg") || !strings.Contains(string(html), strings.TrimLeft(cp[2], "+-")+" %") {
		t.Errorf("the trend page lacks the chart or the change point's size %s %%: %v", cp[2], err)
	}
}

// spinBeforeEachRequest makes the stack's target call a pre-request
// function (lab calibrate's database injection) that spins about us
// microseconds of CPU, in the stack's own config (what the lab restores
// to), and restarts the target, as deploying another build would.
func spinBeforeEachRequest(t *testing.T, dir string, us int) {
	t.Helper()
	st := stackStatus(t, dir)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	burn, err := reconcile.NewBurner(ctx, st.AdminURI)
	if err != nil {
		t.Fatal(err)
	}
	if err := burn.Set(ctx, us); err != nil {
		t.Fatal(err)
	}
	setStackConfig(t, dir, func(f *configs.File) error { return f.Set("db-pre-request", configs.String(pgburn.B)) })
}

// setStackConfig changes the stack's own config (what the lab restores
// to) with edit and restarts the target on it.
func setStackConfig(t *testing.T, dir string, edit func(f *configs.File) error) {
	t.Helper()
	st := stackStatus(t, dir)
	src, err := os.ReadFile(st.Config)
	if err != nil {
		t.Fatal(err)
	}
	f, err := configs.Parse(st.Config, src)
	if err != nil {
		t.Fatal(err)
	}
	if err := edit(f); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(st.Config, f.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := stack.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctrl, err := s.Controller(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if err := ctrl.Restart(context.Background(), st.Target.Name); err != nil {
		t.Fatal(err)
	}
	labtest.WaitFor(t, "the target ready after the restart", func() bool {
		resp, err := http.Get(st.AdminURL + "/ready")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
}
