package history_test

import (
	"github.com/pgrst-lab/pgrst-lab/lab/history/historytest"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab/history"
)

// ChangeLines says each change point in one line: its series, its size
// and the commit range, as lab track prints them; a flat history has none.
func TestChangeLines(t *testing.T) {
	runs := historytest.StepRuns(12, 7, -0.10)
	h, err := history.Analyse("socket-vs-tcp", runs, history.Options{Metrics: []string{"rate"}})
	if err != nil {
		t.Fatal(err)
	}
	lines := history.ChangeLines(h)
	var got []string
	for _, l := range lines {
		if strings.HasPrefix(l, "GETSingle / unix / throughput: -") {
			got = append(got, l)
		}
	}
	before, after := runs[6].Run.Variants[0].Build.Commit[:7], runs[7].Run.Variants[0].Build.Commit[:7]
	if len(got) != 1 || !strings.Contains(got[0], " in "+before+".."+after+": regression") {
		t.Errorf("change lines %q, want one regression of the unix throughput in %s..%s", lines, before, after)
	}
	flat, err := history.Analyse("socket-vs-tcp", historytest.StepRuns(12, 7, 0), history.Options{Metrics: []string{"rate"}})
	if err != nil {
		t.Fatal(err)
	}
	if l := history.ChangeLines(flat); len(l) != 0 {
		t.Errorf("a flat history: %q", l)
	}
}
