package report_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab/report"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden with the current output")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		gotPath := filepath.Join(t.TempDir(), name)
		os.WriteFile(gotPath, got, 0o644)
		t.Errorf("%s differs from the golden file; got written to %s\n(diff them, and run go test -update if the change is right)", path, gotPath)
	}
}

func TestMarkdownGolden(t *testing.T) {
	run := fixtureRun("closed")
	var b bytes.Buffer
	if err := report.Markdown(&b, run, stats.Compare(run, 0.05)); err != nil {
		t.Fatal(err)
	}
	golden(t, "report.md.golden", b.Bytes())
}

func TestTerminalGolden(t *testing.T) {
	run := fixtureRun("closed")
	var b bytes.Buffer
	report.Terminal(&b, run, stats.Compare(run, 0.05))
	golden(t, "terminal.golden", b.Bytes())
}
