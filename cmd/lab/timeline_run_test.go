package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// stallExperiment holds a lock on the table GETSingle reads for 3 s from
// 3 s into every trial: a known stall.
const stallExperiment = `
name = "stall"
scenarios = ["GETSingle"]
[load]
model = "closed"
connections = 4
duration = "9s"
warmup = "1s"
[trials]
min = 2
max = 2
[[variant]]
name = "base"
[[action]]
at = "3s"
do = "sql"
sql = "LOCK TABLE public.artist IN ACCESS EXCLUSIVE MODE"
hold = "3s"
`

// A known stall on the real PostgREST: every trial's timeline shows one
// stall where the lock was held, at its time and for its length to the
// second (the timeline's resolution), the held requests' wait as the
// slowest answer right after it, the action at its time, and the report
// says so. The tolerances are the per-second bins', not the machine's
// speed: the lock stops every request whatever the machine does.
func TestTimelineShowsAKnownStall(t *testing.T) {
	if os.Geteuid() != 0 {
		labtest.Need(t, "root, for the direct supervisor's cgroups")
	}
	dir := directStack(t, "--postgrest", labtest.PostgREST(t))
	if out, err := runLab(t, "fixture", "chinook", "--dir", dir); err != nil {
		t.Fatalf("fixture chinook: %v\n%s", err, out)
	}
	exp := filepath.Join(t.TempDir(), "stall.toml")
	if err := os.WriteFile(exp, []byte(stallExperiment), 0o644); err != nil {
		t.Fatal(err)
	}
	results := t.TempDir()
	out, err := runLab(t, "run", exp, "--dir", dir, "--results", results)
	if err != nil {
		t.Fatalf("lab run: %v\n%s", err, out)
	}
	runDir, run := onlyRun(t, filepath.Join(results, "stall"))
	report := readReport(t, runDir)
	if len(run.Trials) != 2 {
		t.Fatalf("%d trials, want 2", len(run.Trials))
	}
	for _, tr := range run.Trials {
		if tr.Error != "" {
			t.Fatalf("trial %d failed: %s", tr.Seq, tr.Error)
		}
		tl := stats.TimelineOf(tr)
		if len(tl.Stalls) != 1 {
			t.Fatalf("trial %d: stalls %+v, want one (base %v ok/s; points %+v)", tr.Seq, tl.Stalls, tl.BaseRate, tl.Points)
		}
		st := tl.Stalls[0]
		if st.Start < 2 || st.Start > 4 || st.Seconds < 2 || st.Seconds > 4 {
			t.Errorf("trial %d: stall from %v s for %v s, want from 3 s for 3 s (± a second)", tr.Seq, st.Start, st.Seconds)
		}
		if st.WorstMs < 2000 || st.WorstMs > 4500 {
			t.Errorf("trial %d: slowest answer after the stall %v ms, want about the 3 s the lock held it", tr.Seq, st.WorstMs)
		}
		var act *stats.TimelineEvent
		for i, e := range tl.Events {
			if e.Kind == lab.EventAction {
				act = &tl.Events[i]
			}
		}
		if act == nil || act.T < 3 || act.T > 3.5 || act.Seconds < 3 || act.Seconds > 3.5 || strings.Contains(act.Detail, "): ") {
			t.Errorf("trial %d: action event %+v, want at 3 s for 3 s", tr.Seq, act)
		}
	}
	for _, want := range []string{"## Timeline", "event at 3.", "stall from 3"} {
		if !strings.Contains(report, want) {
			t.Errorf("report.md lacks %q:\n%s", want, report)
		}
	}
}

// readReport is a run directory's report.md.
func readReport(t *testing.T, runDir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(runDir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
