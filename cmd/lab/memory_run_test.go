package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
)

// memorySweep is the bundled memory experiment made short: a limit
// PostgREST starts in but cannot serve the embed in, and a roomy one.
const memorySweep = `
name = "memory-short"
scenarios = ["GETAllEmbed"]
[load]
model = "closed"
connections = 8
duration = "1s"
warmup = "0s"
[trials]
min = 2
max = 2
[sweep]
key = "dropin.MemoryMax"
values = ["24M", "256M"]
baseline = "256M"
cheapest = "ascending"
`

// The real PostgREST under both supervisors (issue 54): a memory sweep
// that finds its floor exits 0 although its small limit is OOM-killed, no
// "★ best" marks the failing limit, the cgroup's own peak is recorded
// beside RSS, and the run states its data set (the generated set, seed 1).
// On the direct stack, an experiment whose generated schemas are missing
// is refused before any trial with the command that makes them, and after
// `lab fixture load` of the real files a run says it ran on the real
// Chinook.
func TestMemorySweepFloorAndDataSet(t *testing.T) {
	t.Parallel() // structure, not an effect's size: see parallelTests
	if os.Geteuid() != 0 {
		labtest.Need(t, "root, to make cgroups for the direct supervisor")
	}
	real := filepath.Join(labtest.ChinookDir(), "chinook.sql")
	if _, err := os.Stat(real); err != nil {
		labtest.Need(t, "the real Chinook (LAB_CHINOOK_DIR): %v", err)
	}
	t.Run("systemd", func(t *testing.T) {
		labtest.RequireSystemd(t)
		dir := supervisedStack(t, "systemd", "--postgrest", labtest.PostgREST(t))
		memorySweepRun(t, dir)
	})
	dir := directStack(t, "--postgrest", labtest.PostgREST(t))
	checksum := memorySweepRun(t, dir)

	// Prerequisites said up front: schema-reload's tables are missing.
	out, err := runLab(t, "run", "schema-reload", "--dir", dir, "--results", t.TempDir())
	want := "schema-reload needs 1000 and 10000 extra tables: run lab fixture chinook --dir " + dir + " --tables 1000,10000"
	if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(out, "[1/") {
		t.Errorf("schema-reload without its tables: %v, want %q before any trial\n%s", err, want, out)
	}

	// The real Chinook, loaded from its files, is said to be it.
	if out, err := runLab(t, "fixture", "load", "--dir", dir, real, filepath.Join(labtest.ChinookDir(), "bench.sql")); err != nil {
		t.Fatalf("fixture load: %v\n%s", err, out)
	}
	out, err = runLab(t, "run", "socket-vs-tcp", "--dir", dir, "--results", t.TempDir(), "--min-trials", "2", "--max-trials", "2", "--duration", "1s", "--warmup", "0s")
	if !strings.Contains(out, "data     real Chinook from chinook.sql, bench.sql (checksum ") || strings.Contains(out, checksum[:8]) {
		t.Errorf("on the real Chinook (%v): want its data line, not the generated set's checksum %s:\n%s", err, checksum[:8], out)
	}
}

// memorySweepRun loads the generated set into the stack in dir, runs the
// short memory sweep and checks its answer; it returns the data set's
// checksum.
func memorySweepRun(t *testing.T, dir string) string {
	t.Helper()
	if out, err := runLab(t, "fixture", "chinook", "--dir", dir); err != nil {
		t.Fatalf("fixture chinook: %v\n%s", err, out)
	}
	exp := filepath.Join(t.TempDir(), "memory-short.toml")
	if err := os.WriteFile(exp, []byte(memorySweep), 0o644); err != nil {
		t.Fatal(err)
	}
	results := t.TempDir()
	out, err := runLab(t, "run", exp, "--dir", dir, "--results", results)
	if err != nil {
		t.Fatalf("lab run memory-short: %v, want exit 0 (the floor found)\n%s", err, out)
	}
	flat := strings.Join(strings.Fields(out), " ")
	for _, want := range []string{"every larger one too: 256M", "Below it 24M failed", "data generated set seed 1 (checksum "} {
		if !strings.Contains(flat, want) {
			t.Errorf("console lacks %q:\n%s", want, out)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "MemoryMax ") || strings.HasPrefix(line, "data ") {
			t.Log(line)
		}
		if strings.Contains(line, "24M") && strings.Contains(line, "best") {
			t.Errorf("the failing limit marked best: %q", line)
		}
	}
	runs, _ := filepath.Glob(filepath.Join(results, "*", "*", "run.json"))
	if len(runs) != 1 {
		t.Fatalf("run.json files %v", runs)
	}
	b, err := os.ReadFile(runs[0])
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Dataset struct {
			Kind     string           `json:"kind"`
			Seed     uint64           `json:"seed"`
			Rows     map[string]int64 `json:"rows"`
			Checksum string           `json:"checksum"`
		} `json:"dataset"`
		Trials []struct {
			Variant string `json:"variant"`
			Error   string `json:"error"`
			Server  struct {
				PeakRSS    uint64 `json:"peak_rss"`
				PeakCgroup uint64 `json:"peak_cgroup"`
			} `json:"server"`
		} `json:"trials"`
	}
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	if d := rec.Dataset; d.Kind != "generated" || d.Seed != 1 || d.Rows["track"] != 3503 || len(d.Checksum) != 32 {
		t.Errorf("run.json dataset %+v", d)
	}
	roomy := 0
	for _, tr := range rec.Trials {
		if strings.HasSuffix(tr.Variant, "256M") && tr.Error == "" {
			roomy++
			if tr.Server.PeakCgroup == 0 || tr.Server.PeakCgroup > 256<<20 || tr.Server.PeakRSS == 0 {
				t.Errorf("trial under 256M: cgroup peak %d, RSS %d: want the cgroup's peak, within the limit", tr.Server.PeakCgroup, tr.Server.PeakRSS)
			}
		}
	}
	if roomy == 0 {
		t.Errorf("no trial ran under 256M:\n%s", out)
	}

	return rec.Dataset.Checksum
}
