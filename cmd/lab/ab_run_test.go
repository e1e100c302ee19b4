package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/record"
)

// onlyRun loads the one run recorded under dir (an experiment's results)
// and returns its directory too.
func onlyRun(t *testing.T, dir string) (string, *lab.Run) {
	t.Helper()
	dirs, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(dirs) != 1 {
		t.Fatalf("result dirs %v, want one run", dirs)
	}
	run, err := record.ReadDir(dirs[0])
	if err != nil {
		t.Fatal(err)
	}
	return dirs[0], run
}

// buildMini is the postgrest-mini buildLab built next to lab (once per
// package run; not to be changed: copy it first).
func buildMini(t *testing.T) string {
	t.Helper()
	return filepath.Join(filepath.Dir(buildLab(t)), "postgrest-mini")
}

// `lab ab` with two copies of the target's executable, on the real
// PostgREST and on postgrest-mini, as it runs by default: both served at
// once (a duet), in efficiency mode, on the load test's five lines, whose
// P0..P99 head the summary. Each copy is the one that served its
// variant's trials, and its --version is in run.json, the terminal, both
// reports, the --markdown summary and $GITHUB_STEP_SUMMARY (appended).
func TestABTwoCopies(t *testing.T) {
	t.Parallel() // structure, not an effect's size: see parallelTests
	for _, tg := range []struct {
		name string
		bin  func(t *testing.T) string
	}{{"real", func(t *testing.T) string { return labtest.PostgREST(t) }}, {"mini", buildMini}} {
		t.Run(tg.name, func(t *testing.T) {
			src := tg.bin(t)
			want, err := exec.Command(src, "--version").Output()
			if err != nil {
				t.Fatal(err)
			}
			version := strings.TrimSpace(strings.SplitN(string(want), "\n", 2)[0])
			dir := directStack(t, "--postgrest", src)
			tmp := t.TempDir()
			a := labtest.CopyExecutable(t, src, filepath.Join(tmp, "base", "postgrest"))
			b := labtest.CopyExecutable(t, src, filepath.Join(tmp, "pr", "postgrest"))
			results, md := t.TempDir(), filepath.Join(tmp, "summary.md")
			stepSummary := filepath.Join(tmp, "step-summary.md")
			os.WriteFile(stepSummary, []byte("an earlier step's summary\n"), 0o644)
			out, err := runLabEnv(t, []string{stepSummaryEnv + "=" + stepSummary}, "ab", "base="+a, "pr="+b, "--dir", dir, "--results", results, "--min-rate", tinyRate, "--max-rate", tinyRate,
				"--min-trials", "2", "--max-trials", "2", "--duration", "1s", "--warmup", "0s", "--markdown", md)
			if err != nil {
				t.Fatalf("lab ab: %v\n%s", err, out)
			}
			binaries := "base: " + version + " (" + a + "); pr: " + version + " (" + b + ")"
			if !strings.Contains(out, "binaries "+binaries) {
				t.Errorf("terminal output lacks %q:\n%s", binaries, out)
			}
			runDir, run := onlyRun(t, filepath.Join(results, "binaries"))
			if got, e := strings.Join(run.Experiment.Scenarios, ","), run.Experiment; got != "targets" || e.Trials.Order != lab.OrderDuet || e.Load.Model != lab.ModelEfficiency {
				t.Errorf("scenarios %s, order %s, model %s; want the targets file, a duet, efficiency", got, e.Trials.Order, e.Load.Model)
			}
			// The per-line table names each line once (one scenario, one
			// variant: no columns for them); the verdict row names both.
			if s, _ := os.ReadFile(md); !strings.Contains(string(s), "| endpoint | share | P0 | P50 | P90 | P95 | P99 |") ||
				strings.Count(string(s), "\n| `") != 5 || strings.Count(string(s), "| targets | pr |") != 1 {
				t.Errorf("summary: want the five lines' P0..P99 (and the verdict row):\n%s", s)
			}
			paths := map[string]string{"base": a, "pr": b}
			for _, vi := range run.Variants {
				if vi.Binary != paths[vi.Name] || vi.Version != version {
					t.Errorf("variant %s: binary %q version %q, want %q %q", vi.Name, vi.Binary, vi.Version, paths[vi.Name], version)
				}
				swapped := false
				for _, c := range vi.Changes {
					swapped = swapped || (c.Where == "binary" && c.To == paths[vi.Name])
				}
				if !swapped {
					t.Errorf("variant %s: changes %+v do not swap the executable to %s", vi.Name, vi.Changes, paths[vi.Name])
				}
			}
			measured := map[string]int{}
			for _, tr := range run.Trials {
				if tr.Error == "" && tr.Load.Requests > 0 {
					measured[tr.Variant]++
				}
			}
			if measured["base"] != 2 || measured["pr"] != 2 {
				t.Errorf("measured trials %v, want 2 per variant", measured)
			}
			for _, f := range []string{filepath.Join(runDir, "report.md"), filepath.Join(runDir, "report.html"), filepath.Join(runDir, "verdicts.json"), md, stepSummary} {
				text, _ := os.ReadFile(f)
				flat := strings.Join(strings.Fields(string(text)), " ")
				for _, w := range []string{version, a, b} {
					if !strings.Contains(flat, w) {
						t.Errorf("%s lacks %q", filepath.Base(f), w)
					}
				}
			}
			if s, _ := os.ReadFile(stepSummary); !strings.HasPrefix(string(s), "an earlier step's summary\n<!-- pgrst-lab -->\n### pgrst-lab:") {
				t.Errorf("$GITHUB_STEP_SUMMARY was not appended to:\n%.300s", s)
			}
		})
	}
}
