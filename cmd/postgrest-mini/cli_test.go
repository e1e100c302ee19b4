package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestParseCLI(t *testing.T) {
	old := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(old)
	c, err := parseCLI([]string{"+RTS", "-N1", "-qn1", "-A64m", "-RTS", "/etc/postgrest.conf"})
	if err != nil || c.path != "/etc/postgrest.conf" || c.procs != 1 || runtime.GOMAXPROCS(0) != 1 {
		t.Errorf("RTS: %+v %v (GOMAXPROCS %d)", c, err, runtime.GOMAXPROCS(0))
	}
	if note := c.rtsNote(); note != "GHC RTS options: -N1 sets GOMAXPROCS=1; ignored (no GHC runtime in this Go program): -qn1 -A64m" {
		t.Errorf("note %q", note)
	}
	// GHCRTS as GHC reads it: before the command line, which wins.
	if err := c.rtsFromEnv("-N2 -I0"); err != nil || c.procs != 1 || runtime.GOMAXPROCS(0) != 1 || strings.Join(c.ignoredRTS, " ") != "-I0 -qn1 -A64m" {
		t.Errorf("GHCRTS after +RTS -N1: %+v %v", c, err)
	}
	env, _ := parseCLI(nil)
	if err := env.rtsFromEnv("-N2 -A64m"); err != nil || env.procs != 2 || runtime.GOMAXPROCS(0) != 2 || !strings.Contains(env.rtsNote(), "ignored (no GHC runtime in this Go program): -A64m") {
		t.Errorf("GHCRTS alone: %+v %v %q", env, err, env.rtsNote())
	}
	if err := env.rtsFromEnv("-Nx"); err == nil || !strings.Contains(err.Error(), "GHCRTS -Nx") {
		t.Errorf("bad GHCRTS: %v", err)
	}
	if c, err := parseCLI(nil); err != nil || c.path != "" || c.rtsNote() != "" {
		t.Errorf("no args (env only): %+v %v", c, err)
	}
	for _, bad := range [][]string{{"a", "b"}, {"--nope"}, {"+RTS", "-Nx", "-RTS"}} {
		if _, err := parseCLI(bad); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
}

// TestDumpConfig: the binary resolves the file and PGRST_* overrides.
func TestDumpConfig(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pg.conf")
	if err := os.WriteFile(path, []byte("db-pool = 10\ndb-anon-role = \"$(ROLE)\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binary(t), "--dump-config", path)
	cmd.Env = append(os.Environ(), "PGRST_DB_POOL=4", "ROLE=web_anon")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), `db-pool = "4"`) || !strings.Contains(string(out), `db-anon-role = "web_anon"`) {
		t.Errorf("--dump-config: %v\n%s", err, out)
	}
}
