package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/lab/record"
)

// On the real PostgREST, GETAllEmbed (every album with its tracks, about
// 800 KB an answer) grows the GHC heap far beyond what GETSingle needs, and
// the runtime keeps what it grew to. Measured right after it on the same
// process, GETSingle's peak RSS was GETAllEmbed's; on a target the variant
// was applied to (restarted) for it, it is its own.
func TestEachScenarioPeakRSSIsItsOwnOnRealPostgREST(t *testing.T) {
	t.Parallel() // structure, not an effect's size: see parallelTests
	dir := directStack(t, "--postgrest", labtest.PostgREST(t))
	exp := filepath.Join(t.TempDir(), "rss.toml")
	src := `name = "rss"
scenarios = ["GETAllEmbed", "GETSingle"]
[load]
model = "closed"
connections = 8
duration = "2s"
warmup = "500ms"
[trials]
min = 2
max = 2
interference = 1
[[variant]]
name = "a"
`
	if err := os.WriteFile(exp, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	results := t.TempDir()
	if out, err := runLab(t, "run", exp, "--dir", dir, "--results", results); err != nil {
		t.Fatalf("lab run: %v\n%s", err, out)
	}
	runs, _ := filepath.Glob(filepath.Join(results, "rss", "*", "run.json"))
	if len(runs) != 1 {
		t.Fatalf("run.json: %v", runs)
	}
	run, err := record.Read(runs[0])
	if err != nil {
		t.Fatal(err)
	}
	heavy, light := uint64(0), uint64(0)
	for _, tr := range run.Trials {
		if tr.Error != "" || tr.Server.PeakRSS == 0 {
			t.Fatalf("trial %d (%s): %q, peak RSS %d", tr.Seq, tr.Scenario, tr.Error, tr.Server.PeakRSS)
		}
		t.Logf("trial %d %s: peak RSS %.1f MB, %d requests", tr.Seq, tr.Scenario, float64(tr.Server.PeakRSS)/1e6, tr.Load.Requests)
		if tr.Scenario == "GETAllEmbed" {
			heavy = max(heavy, tr.Server.PeakRSS)
		} else {
			light = max(light, tr.Server.PeakRSS)
		}
	}
	if !(float64(light) < 0.8*float64(heavy)) {
		t.Errorf("GETSingle's peak RSS %.1f MB, GETAllEmbed's %.1f MB: want GETSingle's own, well below", float64(light)/1e6, float64(heavy)/1e6)
	}
}
