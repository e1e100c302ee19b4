package main

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab/stats/statstest"
)

// `lab report --format otava` takes result directories or a results tree
// and writes one row per run, oldest first; --format bmf writes one run.
func TestReportExportFormats(t *testing.T) {
	root := t.TempDir()
	newer := resultDir(t, filepath.Join(root, "socket-vs-tcp", "b"), 2600, 2, statstest.Start.AddDate(0, 0, 1))
	older := resultDir(t, filepath.Join(root, "socket-vs-tcp", "a"), 2600, 1, statstest.Start)

	for _, args := range [][]string{{"report", "--format", "otava", newer, older}, {"report", root, "--format=otava"}} {
		out, errOut, err := reportLab(t, args...)
		if err != nil || errOut != "" {
			t.Fatalf("lab %s: %v %s", strings.Join(args, " "), err, errOut)
		}
		rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if err != nil || len(rows) != 3 || rows[0][0] != "time" || rows[0][6] != "GETSingle.tcp.throughput" ||
			rows[1][0] != "2026-11-30T09:00:00Z" || rows[2][0] != "2026-12-01T09:00:00Z" {
			t.Errorf("lab %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}

	out, _, err := reportLab(t, "report", older, "--format", "bmf")
	var v map[string]map[string]map[string]float64
	if err != nil || json.Unmarshal([]byte(out), &v) != nil || v["GETSingle/unix"]["throughput"]["value"] <= 0 {
		t.Errorf("bmf: %v\n%.300s", err, out)
	}

	os.WriteFile(filepath.Join(root, "broken.json"), nil, 0o644)
	os.MkdirAll(filepath.Join(root, "broken"), 0o755)
	os.WriteFile(filepath.Join(root, "broken", "run.json"), []byte("{"), 0o644)
	if _, errOut, err := reportLab(t, "report", "--format", "otava", root); err != nil || !strings.Contains(errOut, "skipped:") {
		t.Errorf("a broken run.json in the tree: %v, stderr %q; want it skipped with a warning", err, errOut)
	}
	for _, c := range []struct {
		args []string
		want string
		code int
	}{
		{[]string{"report", "--format", "otava"}, "want one or more result directories", 2},
		{[]string{"report", "--format", "otava", "--write", older}, "not with --format otava", 2},
		{[]string{"report", "--format", "bmf", older, newer}, "want one result directory", 2},
		{[]string{"report", "--format", "otava", t.TempDir()}, "no run.json under", 1},
		{[]string{"report", "--format", "otava", filepath.Join(root, "nope")}, "nope", 1},
	} {
		_, _, err := reportLab(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) || exitCode(err) != c.code {
			t.Errorf("lab %s: got %v (exit %d), want %q (exit %d)", strings.Join(c.args, " "), err, exitCode(err), c.want, c.code)
		}
	}
	out, _, _ = reportLab(t, "report", "--help")
	if !strings.Contains(out, "terminal|md|html|json|bench|bmf|otava") || !strings.Contains(out, "bench, bmf, otava") {
		t.Errorf("lab report --help does not list bmf and otava:\n%s", out)
	}
}
