package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
)

// `lab ab --per-line --targets FILE` on the real PostgREST: each request
// of the file is a scenario of its own, named after it, whose trials send
// that request only; each gets its own capacity and its own CPU per
// request verdict in the summary.
func TestABPerLine(t *testing.T) {
	t.Parallel() // structure, not an effect's size: see parallelTests
	src := labtest.PostgREST(t)
	dir := directStack(t, "--postgrest", src)
	tmp := t.TempDir()
	a := labtest.CopyExecutable(t, src, filepath.Join(tmp, "base", "postgrest"))
	b := labtest.CopyExecutable(t, src, filepath.Join(tmp, "pr", "postgrest"))
	targets := filepath.Join(tmp, "two.http")
	os.WriteFile(targets, []byte("GET http://x/artist?artist_id=eq.3\n\nGET http://x/album?select=title&album_id=eq.3\n"), 0o644)
	results, md := t.TempDir(), filepath.Join(tmp, "summary.md")
	out, err := runLab(t, "ab", "base="+a, "pr="+b, "--per-line", "--targets", targets, "--dir", dir, "--results", results,
		"--min-rate", tinyRate, "--max-rate", tinyRate, "--min-trials", "2", "--max-trials", "2", "--duration", "1s", "--warmup", "0s", "--markdown", md)
	if err != nil {
		t.Fatalf("lab ab --per-line: %v\n%s", err, out)
	}
	_, run := onlyRun(t, filepath.Join(results, "binaries"))
	want := []string{"GET-artist", "GET-album"}
	if !slices.Equal(run.Experiment.Scenarios, want) || !run.Experiment.PerLine {
		t.Fatalf("scenarios %v (per_line %v), want %v", run.Experiment.Scenarios, run.Experiment.PerLine, want)
	}
	if len(run.Capacity) != 2 {
		t.Errorf("capacity searches %d, want one per line", len(run.Capacity))
	}
	paths := map[string]string{"GET-artist": "/artist?artist_id=eq.3", "GET-album": "/album?select=title&album_id=eq.3"}
	measured := map[string]int{}
	for _, tr := range run.Trials {
		if tr.Error != "" || tr.Load.Requests == 0 {
			continue
		}
		measured[tr.Scenario]++
		for _, ep := range tr.Load.Endpoints {
			if ep.Path != paths[tr.Scenario] {
				t.Errorf("a trial of %s sent %s %s", tr.Scenario, ep.Method, ep.Path)
			}
		}
	}
	if measured["GET-artist"] != 4 || measured["GET-album"] != 4 {
		t.Errorf("measured trials per line %v, want 2 rounds x 2 builds each", measured)
	}
	s, _ := os.ReadFile(md)
	for _, sc := range want {
		if !strings.Contains(string(s), "| "+sc+" | pr |") {
			t.Errorf("summary lacks %s's verdict row:\n%s", sc, s)
		}
	}
}
