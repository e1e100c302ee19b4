package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/experiments"
	"github.com/pgrst-lab/pgrst-lab/loadgen"
)

func TestValidateAllBundled(t *testing.T) {
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"validate"}, &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	for _, n := range experiments.Names() {
		if !strings.Contains(out.String(), n+": OK (") {
			t.Errorf("no OK line for %s in:\n%s", n, out.String())
		}
	}
}

// The real PostgREST catalogue (package configs) is wired in: a typo'd key
// is reported at its line with a suggestion, a bad enum value with the
// allowed ones; every problem of every file is printed, and the command fails.
func TestValidateReportsCatalogueErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "x.toml")
	src := `name = "x"
scenarios = ["GETSingle"]

[[variant]]
name = "a"

[[variant]]
name = "b"
[variant.postgrest]
db-pol = 5
log-level = "loud"
db-pool = "many"
`
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	err := run(context.Background(), []string{"validate", file, "aa"}, &out, &errb)
	if err == nil || exitCode(err) != 1 || err.Error() != "1 of 2 experiments have problems" {
		t.Errorf("err = %v", err)
	}
	want := []string{
		file + `:10: variant[1].postgrest: unknown key "db-pol" (did you mean "db-pool"?)`,
		file + `:11: variant[1].postgrest.log-level: "loud" is not an allowed value (allowed: `,
		file + `:12: variant[1].postgrest.db-pool: "many" is not an integer`,
		"aa: OK (",
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != len(want) {
		t.Fatalf("output:\n%s", out.String())
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d:\n got %s\nwant %s...", i, lines[i], w)
		}
	}
}

func TestValidateAllowUnknownKeys(t *testing.T) {
	file := filepath.Join(t.TempDir(), "x.toml")
	src := "name = \"x\"\nscenarios = [\"GETSingle\"]\nallow_unknown_keys = true\n[[variant]]\nname = \"a\"\npostgrest = { future-key = 1 }\n"
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"validate", file}, &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
}

// Trials too few for the test to reach a verdict are a warning, not an
// error: the run measures, but no verdict can come of it. The warning
// says the minimum.
func TestValidateWarnsWhenNoVerdictIsReachable(t *testing.T) {
	file := filepath.Join(t.TempDir(), "x.toml")
	src := "name = \"x\"\nscenarios = [\"GETSingle\"]\n[trials]\nmin = 3\nmax = 3\n[[variant]]\nname = \"a\"\n[[variant]]\nname = \"b\"\n"
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"validate", file}, &out, &errb); err != nil {
		t.Fatalf("a warning failed validate: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), file+": OK (") ||
		!strings.Contains(out.String(), "  warning: [trials]: trials.max = 3 cannot reach a verdict") ||
		!strings.Contains(out.String(), "It needs trials.max >= 6") {
		t.Errorf("output:\n%s", out.String())
	}
}

// The estimate of a search run counts every step its searches can take
// (loadgen's own plan: ramp and bisection, within the limit), each with its
// warm-up: one variant, eight scenarios and two rounds of 1 s + 5 s were
// promised "at most 1m36s of load" and took 12 min 42 s.
func TestValidateBoundsASearchRunByItsSteps(t *testing.T) {
	file := filepath.Join(t.TempDir(), "x.toml")
	src := `name = "x"
scenarios = ["GETSingle", "GETSingleEmbed", "GETAllEmbed", "POSTSingle", "POSTBulk", "RPCSimple", "RPCGETSingle", "RPCGETSingleEmbed"]
[load]
model = "search"
warmup = "1s"
duration = "5s"
[load.limit]
p99 = "50ms"
[trials]
min = 2
max = 2
[[variant]]
name = "a"
`
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"validate", file}, &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	steps := loadgen.MaxSearchSteps(100, loadgen.Limit{P99: 50 * time.Millisecond}) // from the default start rate
	most := time.Duration(2*8*steps) * 6 * time.Second
	if want := fmt.Sprintf("search load: at most %s of load if no trial crashes (each trial's search up to %d steps with their warm-ups)", most, steps); !strings.Contains(out.String(), want) {
		t.Errorf("output:\n%s\nwant %q", out.String(), want)
	}
	if most < 12*time.Minute+42*time.Second {
		t.Errorf("the bound %s is below the 12m42s such a run took", most)
	}
}

// TestValidateAgainstARealBinary is the acceptance of issue 43: a variant
// with jwt-cache-max-lifetime fails against 14.x naming the replacement,
// and passes against 13.x; the version is read from each real binary.
func TestValidateAgainstARealBinary(t *testing.T) {
	labtest.EachPostgREST(t, func(t *testing.T, real labtest.Real) {
		out, err := runLab(t, "validate", "--postgrest", real.Path, "jwt-cache-v13")
		if strings.HasPrefix(real.Version, "13.") {
			if err != nil || !strings.Contains(out, "jwt-cache-v13: OK") {
				t.Errorf("13.x: %v\n%s", err, out)
			}
			return
		}
		want := "jwt-cache-max-lifetime was removed in 14.0: use jwt-cache-max-entries (the target is PostgREST " + real.Version + ")"
		if err == nil || !strings.Contains(out, want) {
			t.Errorf("%s: %v, want %q in\n%s", real.Version, err, want, out)
		}
		if out, err := runLab(t, "validate", "--postgrest", real.Path, "jwt-cache"); err != nil {
			t.Errorf("jwt-cache on %s: %v\n%s", real.Version, err, out)
		}
	})
}

// TestValidateSaysSQLActionsRunAsSuperuser: an experiment whose actions
// run SQL is as powerful as its [target]: lab validate says so.
func TestValidateSaysSQLActionsRunAsSuperuser(t *testing.T) {
	file := filepath.Join(t.TempDir(), "sql.toml")
	os.WriteFile(file, []byte(`name = "sql"
title = "sql"
scenarios = ["GETSingle"]
timeline = true
[[action]]
at = "1s"
do = "sql"
sql = "SELECT 1"
hold = "1s"
[[variant]]
name = "a"
`), 0o644)
	out, err := runLab(t, "validate", file)
	if err != nil || !strings.Contains(out, "[[action]]: runs the file's SQL as the PostgreSQL superuser during trials") {
		t.Errorf("%v\n%s", err, out)
	}
}
