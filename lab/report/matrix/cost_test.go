package matrix

import (
	"bytes"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// limitsRun is one host's search run of GETSingle at rate (three trials).
func limitsRun(cpus int, rate float64, cost lab.Cost) *lab.Run {
	run := &lab.Run{Host: lab.Host{CPUs: cpus, MemoryBytes: uint64(cpus) << 30},
		Experiment: lab.Experiment{Name: "limits", Load: lab.Load{Model: lab.ModelSearch}, Scenarios: []string{"GETSingle"},
			Variants: []lab.Variant{{Name: "postgrest", Baseline: true}}, Cost: cost}}
	for _, r := range []float64{rate * 0.98, rate, rate * 1.02} {
		run.Trials = append(run.Trials, lab.Trial{Variant: "postgrest", Scenario: "GETSingle",
			Load: lab.LoadStats{Model: lab.ModelSearch, Requests: int64(2 * r), Rate: r}})
	}
	return run
}

// The 2020 thread's case: a 2-core host at $0.0047/h and a 4-core one at
// $0.1504/h serving about the same rate: scale out on the small one.
func TestCostsSayScaleOut(t *testing.T) {
	cost := lab.Cost{Hosts: map[string]float64{"nano": 0.0047, "xlarge": 0.1504}}
	m := &Matrix{Experiment: "limits", Hosts: []Host{
		{Label: "nano", Run: limitsRun(2, 2068, cost)},
		{Label: "xlarge", Run: limitsRun(4, 2164, cost)},
	}}
	rows := m.Costs()
	if len(rows) != 1 || len(rows[0].Cells) != 2 {
		t.Fatalf("costs %+v", rows)
	}
	a := rows[0].Answer
	if !strings.HasPrefix(a, "scale out: nano") || !strings.Contains(a, "2 x nano") {
		t.Errorf("answer %q, want scale out on nano, 2 of them for xlarge's rate", a)
	}
	var md bytes.Buffer
	if err := Markdown(&md, m, t.TempDir()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "scale out or up?") || !strings.Contains(md.String(), "| GETSingle | nano | 2 | 2068 | 0.0047 |") {
		t.Errorf("matrix.md lacks the cost table:\n%s", md.String())
	}
	var html bytes.Buffer
	if err := HTML(&html, m, t.TempDir()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(html.String(), "scale out or up?") || !strings.Contains(html.String(), "scale out: nano") {
		t.Errorf("matrix.html lacks the cost table")
	}
	var txt bytes.Buffer
	Text(&txt, m)
	if !strings.Contains(txt.String(), "Scale out or up?") {
		t.Errorf("text lacks the answer:\n%s", txt.String())
	}

	// A big host that is also cheapest per million: scale up.
	cost = lab.Cost{Hosts: map[string]float64{"nano": 0.0047, "big": 0.01}}
	m.Hosts = []Host{{Label: "nano", Run: limitsRun(2, 1000, cost)}, {Label: "big", Run: limitsRun(8, 4000, cost)}}
	if a := m.Costs()[0].Answer; !strings.HasPrefix(a, "scale up: big") {
		t.Errorf("answer %q, want scale up on big", a)
	}
	// No prices: no table.
	m.Hosts = []Host{{Label: "nano", Run: limitsRun(2, 1000, lab.Cost{})}}
	if rows := m.Costs(); rows != nil {
		t.Errorf("costs without prices: %+v", rows)
	}
}
