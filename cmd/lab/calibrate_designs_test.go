package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/calibrate"
	"github.com/pgrst-lab/pgrst-lab/lab/record"
)

// lab calibrate --designs interleaved,duet on real PostgREST: every run
// once per design, the duet's on the target and its twin at once, each
// design tallied apart and compared per minute. Structure, not
// sensitivity: two runs of two rounds say nothing of which design wins.
func TestCalibrateComparesDesigns(t *testing.T) {
	t.Parallel() // structure, not an effect's size: see parallelTests
	dir := directStack(t, "--postgrest", labtest.PostgREST(t))
	results := t.TempDir()
	out, err := runLab(t, "calibrate", "socket-vs-tcp", "--dir", dir, "--results", results, "--designs", "interleaved,duet",
		"--aa-runs", "1", "--runs", "1", "--effects", "30", "--size=false", "--min-trials", "2", "--max-trials", "2", "--duration", "1s", "--warmup", "0s", "--min-rate", tinyRate, "--max-rate", tinyRate)
	if err != nil {
		t.Fatalf("calibrate: %v\n%s", err, out)
	}
	for _, want := range []string{"4 runs (A/A ×1, 30% ×1 for each of 2 designs (interleaved, duet), alternately)", "interleaved A/A #1", "duet A/A #1",
		"duet 30% (", "so far (duet): ", "\ninterleaved: ", "\nduet: "} { // MDEs need more rounds than two

		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	reports, _ := filepath.Glob(filepath.Join(results, "calibrate", "socket-vs-tcp", "*"))
	if len(reports) != 1 {
		t.Fatalf("want one calibration directory, got %v", reports)
	}
	var res calibrate.Result
	b, _ := os.ReadFile(filepath.Join(reports[0], "calibration.json"))
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 4 || res.Rows[0].Design != lab.OrderInterleaved || res.Rows[2].Design != lab.OrderDuet {
		t.Fatalf("rows %+v; want interleaved A/A, 30%%, then duet A/A, 30%%", res.Rows)
	}
	if md, _ := os.ReadFile(filepath.Join(reports[0], "calibration.md")); !strings.Contains(string(md), "## Designs per minute") {
		t.Errorf("calibration.md lacks the comparison:\n%s", md)
	}
	for _, o := range res.Outcomes {
		run, err := record.ReadDir(filepath.Join(reports[0], o.Dir))
		if err != nil {
			t.Fatal(err)
		}
		for _, tr := range run.Trials {
			if duet := o.Design == lab.OrderDuet; duet != (tr.Half != "") || tr.Error != "" {
				t.Errorf("%s run, trial %d: half %q, error %q", o.Design, tr.Seq, tr.Half, tr.Error)
			}
		}
	}
}
