package history_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab/history"
	"github.com/pgrst-lab/pgrst-lab/lab/history/historytest"
	historyreport "github.com/pgrst-lab/pgrst-lab/lab/report/history"
)

// TestAcknowledgedChangeMarked: a change point acknowledged (lab history
// ack) is marked with its note in the text and on the trend page, where
// the note is escaped; its id is printed either way.
func TestAcknowledgedChangeMarked(t *testing.T) {
	h, err := history.Analyse("socket-vs-tcp", historytest.StepRuns(12, 7, -0.10), history.Options{Metrics: []string{"rate"}})
	if err != nil {
		t.Fatal(err)
	}
	fs := h.Changes()
	if len(fs) != 1 {
		t.Fatalf("%d change points, want the step's one", len(fs))
	}
	id := fs[0].Change.ID
	var text, page bytes.Buffer
	historyreport.Text(&text, h, historyreport.TextOptions{})
	if !strings.Contains(text.String(), "id "+id) || strings.Contains(text.String(), "acknowledged") {
		t.Fatalf("before the ack: want the id and no mark:\n%s", text.String())
	}
	h.Acknowledge(map[string]history.Ack{id: {Note: "<b>expected</b>: new JSON encoder", At: time.Date(2026, 12, 5, 0, 0, 0, 0, time.UTC)}})
	text.Reset()
	historyreport.Text(&text, h, historyreport.TextOptions{})
	for _, want := range []string{"regression (acknowledged) ───", "id " + id + "; acknowledged 2026-12-05: <b>expected</b>: new JSON encoder"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
	if err := historyreport.HTML(&page, h, historyreport.HTMLOptions{}); err != nil {
		t.Fatal(err)
	}
	if p := page.String(); !strings.Contains(p, "acknowledged 2026-12-05: &lt;b&gt;expected&lt;/b&gt;: new JSON encoder") ||
		!strings.Contains(p, "✓ acknowledged") || strings.Contains(p, "<b>expected") {
		t.Errorf("trend page: want the mark and the escaped note")
	}
}
