package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/host/stack"
	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
)

// labDir is a fresh state dir PostgreSQL can enter.
func labDir(t *testing.T) string { return labtest.StateDir(t) }

// directStack brings up a local stack under the direct supervisor in a
// fresh state directory (needs PostgreSQL), with targetArgs given to
// `stack up` (e.g. --postgrest PATH), torn down after the test.
func directStack(t *testing.T, targetArgs ...string) string {
	t.Helper()
	return supervisedStack(t, "direct", targetArgs...)
}

// supervisedStack is directStack under the supervisor sup (direct or
// systemd).
func supervisedStack(t *testing.T, sup string, targetArgs ...string) string {
	t.Helper()
	if _, err := os.Stat("/usr/lib/postgresql"); err != nil && os.Getenv("LAB_PG_BINDIR") == "" {
		labtest.Need(t, "PostgreSQL: %v", err)
	}
	dir := labDir(t)
	t.Cleanup(func() {
		if s, err := stack.Open(dir); err == nil {
			_ = s.Down(context.Background(), true)
			s.Close()
		}
	})
	if out, err := runLab(t, append([]string{"stack", "up", "--dir", dir, "--supervisor", sup}, targetArgs...)...); err != nil {
		t.Fatalf("stack up: %v\n%s", err, out)
	}
	return dir
}

func runLab(t *testing.T, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute) // a guard: lab track and bisect take minutes on a busy machine
	defer cancel()
	var out, errb bytes.Buffer
	err := run(ctx, args, &out, &errb)
	return out.String(), err
}

// runLabEnv is runLab in a process of its own (buildLab's lab) whose
// environment is the test's with env added ("NAME=value"): what a
// parallel test uses instead of t.Setenv. The error carries the
// process's standard error.
func runLabEnv(t *testing.T, env []string, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, buildLab(t), args...)
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("lab %s: %w: %s", strings.Join(args, " "), err, errb.String())
	}
	return out.String(), nil
}

// The whole path a user takes, on the real PostgREST and on the reference
// server: up, status --json, fixture chinook, a GET through the target the
// moment fixture returns (it returns only when the target serves the new
// schema), a broken fixture file, down --purge.
func TestStackAndFixtureCommands(t *testing.T) {
	t.Parallel() // structure, not an effect's size: see parallelTests
	for _, tg := range labTargets("") {
		t.Run(tg.name, func(t *testing.T) { stackAndFixture(t, tg.flags(t), tg.reference) })
	}
}

func stackAndFixture(t *testing.T, targetArgs []string, reference bool) {
	dir := directStack(t, targetArgs...)
	out, err := runLab(t, "stack", "status", "--dir", dir, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var st map[string]any
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatalf("status --json: %v\n%s", err, out)
	}
	for _, k := range []string{"supervisor", "postgres", "target", "tcp_uri", "unix_uri", "url", "admin_url", "config", "binary", "reference", "pg_socket_dir"} {
		if _, ok := st[k]; !ok {
			t.Errorf("status --json has no %q", k)
		}
	}
	if st["supervisor"] != "direct" || st["reference"] != reference {
		t.Errorf("status: supervisor %v reference %v, want %v", st["supervisor"], st["reference"], reference)
	}
	if out, err := runLab(t, "stack", "status", "--dir", dir); err != nil || strings.Contains(out, "reference server") != reference {
		t.Errorf("status (reference %v): %v\n%s", reference, err, out)
	}

	if out, err := runLab(t, "fixture", "chinook", "--dir", dir); err != nil || !strings.Contains(out, "15607 rows") || !strings.Contains(out, "serves the new database") {
		t.Fatalf("fixture chinook: %v %s", err, out)
	}
	// No polling: fixture returned, so the target serves the new schema.
	url := st["url"].(string) + "/artist?select=*&artist_id=eq.3"
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s right after fixture: %v", url, err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s right after fixture: %s %s", url, resp.Status, body)
	}
	var rows []map[string]any
	if err := json.Unmarshal(body, &rows); err != nil || len(rows) != 1 || rows[0]["artist_id"] != float64(3) {
		t.Errorf("GET %s: %s (%v)", url, body, err)
	}

	bad := filepath.Join(t.TempDir(), "bad.sql")
	os.WriteFile(bad, []byte("CREATE TABLE x (a int);\nCREATE TABLE y (b nosuchtype;\n"), 0o644)
	_, err = runLab(t, "fixture", "load", "--dir", dir, bad)
	if err == nil || !strings.Contains(err.Error(), bad+":2") || strings.Contains(err.Error(), "\n") {
		t.Errorf("broken fixture: %v", err)
	}

	if out, err := runLab(t, "stack", "down", "--dir", dir, "--purge"); err != nil || !strings.Contains(out, "stopped") {
		t.Fatalf("stack down: %v %s", err, out)
	}
	if out, err := runLab(t, "stack", "down", "--dir", dir); err == nil || !strings.Contains(err.Error(), "no lab stack") {
		t.Errorf("down after purge: %v %s", err, out)
	}
}

func TestStackUsageErrors(t *testing.T) {
	for _, args := range [][]string{{"stack"}, {"stack", "sideways"}, {"fixture"}, {"stack", "up", "extra"}} {
		_, err := runLab(t, args...)
		if err == nil || exitCode(err) != 2 {
			t.Errorf("lab %v: %v (exit %d)", args, err, exitCode(err))
		}
	}
}
