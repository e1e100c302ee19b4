package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/experiments"
	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
)

// shortExperiment is a bundled experiment's file at a CI size: one-second
// trials without warm-up, two of each (replacements old, new pairs first).
func shortExperiment(t *testing.T, name string, replacements ...string) string {
	t.Helper()
	b, err := experiments.Source(name)
	if err != nil {
		t.Fatal(err)
	}
	src := string(b)
	for i := 0; i+1 < len(replacements); i += 2 {
		if !strings.Contains(src, replacements[i]) {
			t.Fatalf("%s.toml no longer has %q", name, replacements[i])
		}
		src = strings.Replace(src, replacements[i], replacements[i+1], 1)
	}
	return src
}

// fixtureStack is a direct stack of the real PostgREST with the Chinook
// fixture loaded before the run (a run's own loading races PostgREST's
// schema cache: a first trial saw 404s).
// writeExperiment writes a bundled experiment's (shortened) source src to
// a temporary directory as NAME.toml, with the files it names beside it
// (paths under experiments/, copied as they are), and returns its path.
func writeExperiment(t *testing.T, name, src string, files ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join("..", "..", "experiments", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	exp := filepath.Join(dir, name+".toml")
	if err := os.WriteFile(exp, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return exp
}

func fixtureStack(t *testing.T) string {
	t.Helper()
	dir := directStack(t, "--postgrest", labtest.PostgREST(t))
	if out, err := runLab(t, "fixture", "chinook", "--dir", dir); err != nil {
		t.Fatalf("fixture chinook: %v\n%s", err, out)
	}
	return dir
}

// The bundled jwt experiment at a short size on the real PostgREST: every
// scenario (HS256 and RS256, reused and unique tokens, signed by the lab
// with the bundled key) is answered 200 through the JWKS in both variants,
// and the report has the jwt Server-Timing phase per scenario.
func TestJWTExperimentRuns(t *testing.T) {
	t.Parallel() // structure, not an effect's size: see parallelTests
	src := shortExperiment(t, "jwt", `warmup = "2s"`, `warmup = "0s"`, `duration = "6s"`, `duration = "1s"`,
		"min = 8\nmax = 8", "min = 2\nmax = 2", "rate = 300", "rate = 100")
	exp := writeExperiment(t, "jwt", src, "jwt/rs256.pem")
	stack := fixtureStack(t)
	results := t.TempDir()
	out, err := runLab(t, "run", exp, "--dir", stack, "--results", results)
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	dirs, _ := filepath.Glob(filepath.Join(results, "jwt", "*"))
	if len(dirs) != 1 {
		t.Fatalf("result dirs %v", dirs)
	}
	b, err := os.ReadFile(filepath.Join(dirs[0], "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	var run struct {
		Trials []struct {
			Variant, Scenario string
			Load              struct {
				Requests, Errors int64
				Status           map[string]int64
				ErrorKinds       map[string]int64 `json:"error_kinds"`
				ServerTiming     *struct {
					Phases []struct {
						Name   string
						MeanMs float64 `json:"mean_ms"`
					}
				} `json:"server_timing"`
			}
		}
	}
	if err := json.Unmarshal(b, &run); err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, r := range run.Trials {
		seen[r.Scenario]++
		if r.Load.Requests == 0 || r.Load.Errors != 0 {
			t.Errorf("%s / %s: %d requests, %d errors (want all answered 200): status %v, errors %v", r.Variant, r.Scenario, r.Load.Requests, r.Load.Errors, r.Load.Status, r.Load.ErrorKinds)
		}
		jwt := false
		if st := r.Load.ServerTiming; st != nil {
			for _, p := range st.Phases {
				jwt = jwt || (p.Name == "jwt" && p.MeanMs > 0)
			}
		}
		if !jwt {
			t.Errorf("%s / %s: no jwt Server-Timing phase: %+v", r.Variant, r.Scenario, r.Load.ServerTiming)
		}
	}
	for _, sc := range []string{"hs256-reused", "hs256-unique", "rs256-reused", "rs256-unique"} {
		if seen[sc] != 4 {
			t.Errorf("%s: %d trials, want 2 per variant (%v)", sc, seen[sc], seen)
		}
	}
	t.Logf("%s", out)
}
