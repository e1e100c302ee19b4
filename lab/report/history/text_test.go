package history_test

import (
	"bytes"
	"github.com/pgrst-lab/pgrst-lab/lab/history/historytest"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/golden"
	"github.com/pgrst-lab/pgrst-lab/lab/history"
	historyreport "github.com/pgrst-lab/pgrst-lab/lab/report/history"
)

func TestTextGolden(t *testing.T) {
	h, err := history.Analyse("socket-vs-tcp", historytest.StepRuns(12, 7, -0.10), history.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	historyreport.Text(&out, h, historyreport.TextOptions{})
	if want := golden.File(t, "testdata/golden/history.txt", out.Bytes()); !bytes.Equal(out.Bytes(), want) {
		t.Errorf("text differs from testdata/golden/history.txt (go test -update rewrites it):\n%s", out.String())
	}
}

func TestTextTruncatesLongSeries(t *testing.T) {
	h, err := history.Analyse("socket-vs-tcp", historytest.StepRuns(100, 60, -0.10), history.Options{Metrics: []string{"rate"}})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	historyreport.Text(&out, h, historyreport.TextOptions{})
	s := out.String()
	block := s[strings.Index(s, "GETSingle / unix"):]
	lines := strings.Count(block, "\n")
	if lines > 30 || !strings.Contains(block, "run(s) not shown (--full lists them)") || !strings.Contains(block, "at #61:") {
		t.Errorf("%d lines:\n%s", lines, block)
	}
	// The rows around the change are shown.
	for _, want := range []string{" 60  ", " 61  ", " 100  "} {
		if !strings.Contains(block, want) {
			t.Errorf("block lacks row %q:\n%s", want, block)
		}
	}
	out.Reset()
	historyreport.Text(&out, h, historyreport.TextOptions{Full: true})
	if strings.Contains(out.String(), "not shown") || strings.Count(out.String(), "\n") < 200 {
		t.Errorf("--full left rows out")
	}
}
