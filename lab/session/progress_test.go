package session

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// Off a terminal the progress is one line per trial with its figures and
// the counter of trials (min..max when the run may stop early), a failed
// trial's error on one line without its control characters, and notes
// indented; no live line.
func TestTermProgressLines(t *testing.T) {
	var out bytes.Buffer
	p := NewTermProgress(&out)
	pos := lab.Position{Seq: 3, MinTrials: 6, MaxTrials: 12, Variant: "mid", Scenario: "GETSingle", Elapsed: 75 * time.Second, Remaining: 20 * time.Second,
		Earliest: 20 * time.Second, Latest: 100 * time.Second}
	p.Applying(pos)
	p.Load(pos, lab.LoadProgress{Elapsed: time.Second})
	var tr lab.Trial
	tr.Variant, tr.Scenario = "mid", "GETSingle"
	tr.Load.Rate, tr.Server.CPUPerRequestUs, tr.Database.CPUPerRequestUs = 1234, 150, 980
	p.TrialDone(pos, tr)
	tr.Error = "exit 1\n\x1b[31mboom"
	pos.MinTrials = pos.MaxTrials
	p.TrialDone(pos, tr)
	p.Note("verdict decided after 6 rounds")
	got := out.String()
	for _, want := range []string{
		"[trial 3, stops between 6 and 12] mid        GETSingle            1234 req/s", "server   150 µs/req  db   980 µs/req  (1m15s elapsed, ~20s–1m40s left)\n",
		"[3/12] mid        GETSingle        FAILED: exit 1 | ",
		"  verdict decided after 6 rounds\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("progress lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "\r") || strings.Contains(got, "applying") || strings.Contains(got, "\x1b") {
		t.Errorf("a live line or a raw escape off a terminal:\n%q", got)
	}
}
