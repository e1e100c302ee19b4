package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
)

// PostgREST's own load test on the real PostgREST: lab fixture chinook
// --postgrest-loadtest makes its schema beside Chinook, and the bundled
// postgrest-loadtest replays its fifteen lines with its settings, two
// copies of the build at once (a duet). Every line is answered, none
// with a 5xx; the lines PostgREST's file means to fail get PostgREST's
// error statuses (a missing table 404, a forbidden one 401), and the ones
// it means to succeed get a 2xx.
func TestPostgRESTLoadtestRuns(t *testing.T) {
	t.Parallel() // structure, not an effect's size: see parallelTests
	src := labtest.PostgREST(t)
	dir := directStack(t, "--postgrest", src)
	if out, err := runLab(t, "fixture", "chinook", "--postgrest-loadtest", "--dir", dir); err != nil {
		t.Fatalf("fixture: %v\n%s", err, out)
	}
	tmp := t.TempDir()
	a := labtest.CopyExecutable(t, src, filepath.Join(tmp, "a", "postgrest"))
	b := labtest.CopyExecutable(t, src, filepath.Join(tmp, "b", "postgrest"))
	results := t.TempDir()
	out, err := runLab(t, "run", "postgrest-loadtest", "--binary", "release="+a, "--binary", "branch="+b, "--dir", dir, "--results", results,
		"--min-rate", tinyRate, "--max-rate", tinyRate, "--min-trials", "2", "--max-trials", "2", "--duration", "3s", "--warmup", "0s")
	if err != nil {
		t.Fatalf("lab run postgrest-loadtest: %v\n%s", err, out)
	}
	_, run := onlyRun(t, filepath.Join(results, "postgrest-loadtest"))
	// The status of each path (over all trials: a short trial on a busy
	// machine may not reach every line): PostgREST's own answers.
	status := map[string][]int{}
	for _, tr := range run.Trials {
		for _, ep := range tr.Load.Endpoints {
			if k := ep.Method + " " + ep.Path; !slices.Contains(status[k], ep.Status) {
				status[k] = append(status[k], ep.Status)
			}
		}
	}
	t.Logf("statuses: %v", status)
	if len(status) != 15 {
		t.Errorf("%d lines answered, want PostgREST's 15", len(status))
	}
	want := map[string]int{
		"GET /": 200, "GET /actors?select=*,roles(*,films(*))": 200, "POST /films?columns=id,title": 201,
		"GET /rpc/call_me?name=John": 200, "POST /rpc/call_me": 200, "DELETE /roles": 204,
		"GET /actoxs?actor=eq.1": 404, "GET /rpc/call_me_x?name=John": 404, "GET /actors_1": 401,
	}
	for k, ss := range status {
		for _, s := range ss {
			if s == 0 || s >= 500 {
				t.Errorf("%s: status %d, want an answer below 500", k, s)
			}
		}
		if w, ok := want[k]; ok && !slices.Equal(ss, []int{w}) {
			t.Errorf("%s: statuses %v, want %d", k, ss, w)
		}
	}
	if !strings.Contains(out, "postgrest-loadtest") {
		t.Errorf("no run output:\n%s", out)
	}
}
