package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const sweepExperiment = `name = "sweep-tiny"
scenarios = ["GETSingle"]
[load]
model = "closed"
connections = 8
duration = "1s"
warmup = "0s"
[trials]
min = 2
max = 2
[sweep]
key = "postgrest.db-pool"
values = [1, 2, 4]
baseline = 2
`

// A short db-pool sweep end to end, on the real PostgREST and on the
// reference server: the terminal says the recommendation, report.html has
// a curve per metric, verdicts.json the sweep's values with medians.
func TestSweepRunTiny(t *testing.T) {
	t.Parallel() // structure, not an effect's size: see parallelTests
	for _, tg := range labTargets("") {
		t.Run(tg.name, func(t *testing.T) {
			out, resultDir := runExperiment(t, directStack(t, tg.flags(t)...), "sweep-tiny", sweepExperiment)
			if !strings.Contains(out, "Sweep postgrest.db-pool, GETSingle:") || !strings.Contains(out, "Recommendation: ") {
				t.Errorf("output lacks the sweep and its recommendation:\n%s", out)
			}
			html, _ := os.ReadFile(filepath.Join(resultDir, "report.html"))
			for _, m := range []string{"throughput", "latency p99", "server + database CPU", "server peak RSS"} {
				if want := `aria-label="GETSingle: ` + m + ` vs db-pool"`; !strings.Contains(string(html), want) {
					t.Errorf("report.html lacks the curve %s", want)
				}
			}
			if !strings.Contains(string(html), "<b>Recommendation:</b> ") {
				t.Error("report.html lacks the recommendation")
			}
			var v struct {
				Sweep struct {
					Keys      []string `json:"keys"`
					Scenarios []struct {
						Points []struct {
							Variant string
							Metrics map[string]struct{ Median *float64 }
						}
						Recommendation struct{ Sentence string }
					}
				}
			}
			b, _ := os.ReadFile(filepath.Join(resultDir, "verdicts.json"))
			if err := json.Unmarshal(b, &v); err != nil {
				t.Fatal(err)
			}
			sc := v.Sweep.Scenarios
			if len(v.Sweep.Keys) != 1 || len(sc) != 1 || len(sc[0].Points) != 3 || sc[0].Recommendation.Sentence == "" {
				t.Fatalf("verdicts.json sweep: %s", b)
			}
			for i, p := range sc[0].Points {
				if want := []string{"db-pool=1", "db-pool=2", "db-pool=4"}[i]; p.Variant != want || p.Metrics["rate"].Median == nil || !(*p.Metrics["rate"].Median > 0) {
					t.Errorf("point %d: %s %+v, want %s with a throughput", i, p.Variant, p.Metrics, want)
				}
			}
			t.Logf("%s: %s", tg.name, sc[0].Recommendation.Sentence)
		})
	}
}

// runExperiment runs the experiment src (named name) on the stack in dir
// and returns the output and the run's result directory.
func runExperiment(t *testing.T, dir, name, src string) (out, resultDir string) {
	t.Helper()
	exp := filepath.Join(t.TempDir(), name+".toml")
	if err := os.WriteFile(exp, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	results := t.TempDir()
	out, err := runLab(t, "run", exp, "--dir", dir, "--results", results)
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	dirs, _ := filepath.Glob(filepath.Join(results, name, "*"))
	if len(dirs) != 1 {
		t.Fatalf("result dirs %v", dirs)
	}
	return out, dirs[0]
}
