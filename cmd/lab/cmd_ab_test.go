package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// script writes an executable shell script into dir.
func script(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// Bad --binary, `lab ab` and --gate arguments fail before any stack is
// touched, with exit code 2 and a message naming the argument.
func TestBinaryAndGateUsageErrors(t *testing.T) {
	dir := t.TempDir()
	good := script(t, dir, "postgrest", `echo "PostgREST 13.0.8"`)
	broken := script(t, dir, "broken", `echo "no such option" >&2; exit 1`)
	noexec := filepath.Join(dir, "noexec")
	os.WriteFile(noexec, []byte("x"), 0o644)
	stackDir := filepath.Join(dir, "nostack")
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"run", "binaries", "--binary", "base"}, []string{`"base": want NAME=PATH`}},
		{[]string{"run", "binaries", "--binary", "b@d=" + good}, []string{`name "b@d"`, "letters, digits"}},
		{[]string{"run", "binaries", "--binary", "base=" + filepath.Join(dir, "missing")}, []string{"no such file"}},
		{[]string{"run", "binaries", "--binary", "base=" + noexec}, []string{"is not executable"}},
		{[]string{"run", "binaries", "--binary", "base=" + dir}, []string{"not a regular file"}},
		{[]string{"run", "binaries", "--binary", "base=" + good}, []string{"at least two"}},
		{[]string{"run", "binaries", "--binary", "x=" + good, "--binary", "x=" + good}, []string{`"x" is given twice`}},
		{[]string{"run", "binaries", "--binary", "base=" + good, "--binary", "pr=" + broken}, []string{"pr=" + broken, "--version", "no such option", "PostgREST build"}},
		{[]string{"run", "binaries", "--binary", "base=" + good, "--binary", "pr=" + good, "--scenarios", "GETSingel"}, []string{"GETSingel", "GETSingle"}},
		{[]string{"ab", good}, []string{"give two executables"}},
		{[]string{"ab", good, filepath.Join(dir, "missing")}, []string{"executable B", "no such file"}},
		{[]string{"ab", good, good, "NoScenario"}, []string{`"NoScenario"`}},
		{[]string{"ab", good, good, "--binary", "c=" + good}, []string{"--binary is for 'lab run'"}},
		{[]string{"run", "binaries", "--gate", "thruput<-3%"}, []string{`unknown metric "thruput"`, "allowed: throughput, p50, p99"}},
		{[]string{"run", "binaries", "--gate", "p99>-3%"}, []string{"'>' needs a positive percentage"}},
		{[]string{"run", "aa", "--gate", "throughput<-3%", "--agent", "https://127.0.0.1:1"}, []string{"--markdown and --gate work on a run on one host"}},
	} {
		out, err := runLab(t, append(tc.args, "--dir", stackDir)...)
		if err == nil {
			t.Errorf("lab %v: no error\n%s", tc.args, out)
			continue
		}
		if code := exitCode(err); code != 2 {
			t.Errorf("lab %v: exit code %d, want 2 (%v)", tc.args, code, err)
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("lab %v: error %q lacks %q", tc.args, err, w)
			}
		}
	}
	if _, err := os.Stat(stackDir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a usage error touched the stack directory: %v", err)
	}
}

func TestABArguments(t *testing.T) {
	dir := t.TempDir()
	a := script(t, dir, "a", `echo A`)
	eq := script(t, dir, "x=y", `echo B`)
	var pf prFlags
	name, err := abExperiment([]string{a, "pr=" + a}, &pf)
	if err != nil || name != "binaries" {
		t.Fatalf("abExperiment: %q, %v", name, err)
	}
	if len(pf.binaries) != 2 || pf.binaries[0].Name != "a" || pf.binaries[1].Name != "pr" || pf.binaries[1].Path != a {
		t.Errorf("binaries %+v, want a=%s and pr=%s", pf.binaries, a, a)
	}
	if pf.scenarios != nil {
		t.Errorf("scenarios %v, want none (the experiment's targets file)", pf.scenarios)
	}
	pf = prFlags{}
	if _, err := abExperiment([]string{eq, a, "GETSingle"}, &pf); err != nil {
		t.Fatal(err)
	}
	if pf.binaries[0].Name != "a" || pf.binaries[0].Path != eq || strings.Join(pf.scenarios, ",") != "GETSingle" {
		t.Errorf("a path holding '=' is a path: %+v %v", pf.binaries, pf.scenarios)
	}
}

// The gate's exit code is distinct from failures and usage errors.
func TestGateExitCode(t *testing.T) {
	if c := exitCode(errors.Join(errors.New("x"), errGate)); c != 3 || exitGate != 3 {
		t.Errorf("exit code %d, want 3", c)
	}
	if c := exitCode(fmt.Errorf("%w: blind", errInconclusive)); c != 4 || exitInconclusive != 4 {
		t.Errorf("an inconclusive gate's exit code %d, want 4", c)
	}
}

// `lab run binaries` keeps taking its executables from $(PGRST_RELEASE)
// and $(PGRST_BRANCH); --binary replaces those variants before the
// placeholders are resolved, so it needs neither.
func TestBinariesPlaceholdersAndBinaryFlag(t *testing.T) {
	t.Setenv("PGRST_RELEASE", "")
	t.Setenv("PGRST_BRANCH", "")
	good := script(t, t.TempDir(), "postgrest", `echo "PostgREST 13.0.8"`)
	stackDir := filepath.Join(t.TempDir(), "nostack")
	_, err := runLab(t, "run", "binaries", "--dir", stackDir)
	if err == nil || !strings.Contains(err.Error(), "PGRST_RELEASE is not set") || !strings.Contains(err.Error(), "PGRST_BRANCH is not set") {
		t.Errorf("without --binary: %v, want the unset placeholders named", err)
	}
	// A bad scenario stops the run after the placeholders would have been
	// resolved: the error is about the scenario only.
	_, err = runLab(t, "run", "binaries", "--binary", "base="+good, "--binary", "pr="+good, "--scenarios", "NoSuch", "--dir", stackDir)
	if err == nil || strings.Contains(err.Error(), "PGRST_") || !strings.Contains(err.Error(), `"NoSuch"`) {
		t.Errorf("with --binary: %v, want only the unknown scenario", err)
	}
}
