package history_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/history"
	"github.com/pgrst-lab/pgrst-lab/lab/history/historytest"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// phaseRuns are n runs, one a day, of PostgREST 13.0.8 up to run at
// (0-based) and 14.17 from it, whose transaction phase is 0.2 ms (CPU
// time) before and 1.5 ms (wall clock) from it, with a small wobble.
func phaseRuns(n, at int) []history.Run {
	var rs []history.Run
	for i := range n {
		version, tx := "13.0.8", 0.2
		if i >= at {
			version, tx = "14.17", 1.5
		}
		r := historytest.Run(historytest.Synth{Rate: 2600, Commit: fmt.Sprintf("%040x", i+1), Version: version, Day: i}, uint64(i+1))
		r.Run.Target.Reference, r.Run.Target.Version = false, "PostgREST "+version
		for j := range r.Run.Trials {
			t := &r.Run.Trials[j]
			ms := tx * (1 + 0.01*float64(t.Rep%3))
			st := &lab.ServerTiming{Requests: t.Load.Requests}
			for _, name := range lab.PhaseNames {
				v := 0.05
				if name == "transaction" {
					v = ms
				}
				st.Phases = append(st.Phases, lab.PhaseStat{Name: name, MeanMs: v})
				st.Total.MeanMs += v
			}
			t.Load.ServerTiming = st
		}
		rs = append(rs, r)
	}
	return rs
}

// TestPhasesAcrossClocksHaveNoVerdict: a history whose runs go from
// PostgREST 13.0.8 to 14.17 finds the step in the transaction phase, but
// calls it not comparable (CPU time before 14.2, wall clock from it), not
// a regression; and the regression check does not fire on a newest 14.17
// run after 13.0.8's. Throughput's series keeps its verdicts.
func TestPhasesAcrossClocksHaveNoVerdict(t *testing.T) {
	h, err := history.Analyse("socket-vs-tcp", phaseRuns(10, 5), history.Options{By: history.ByVersion,
		Metrics: []string{"rate", lab.PhasePrefix + "transaction"}})
	if err != nil {
		t.Fatal(err)
	}
	s := series(t, h, "GETSingle / unix / Server-Timing transaction (mean)")
	if len(s.Changes) != 1 {
		t.Fatalf("changes %+v, want the step at 14.17", s.Changes)
	}
	c := s.Changes[0]
	const note = "13.0.8 reports CPU time, 14.17 wall clock (PostgREST #4522, 14.2): not comparable"
	if c.Outcome != stats.NotComparable || c.Note != note || c.What() != "not comparable" || !strings.Contains(c.Verdict(), note) {
		t.Errorf("change %s (%s): outcome %q, note %q", c.What(), c.Verdict(), c.Outcome, c.Note)
	}
	if r := series(t, h, "GETSingle / unix / throughput"); len(r.Changes) != 0 {
		t.Errorf("throughput did not change: %+v", r.Changes)
	}

	f := history.Regressions(mustAnalyse(t, phaseRuns(8, 7)), 2)
	for _, x := range f {
		if strings.Contains(x.Series, "Server-Timing") {
			t.Errorf("regression check fired across clocks: %s", x)
		}
	}
}

func mustAnalyse(t *testing.T, runs []history.Run) *history.History {
	t.Helper()
	h, err := history.Analyse("socket-vs-tcp", runs, history.Options{By: history.ByVersion, Metrics: []string{lab.PhasePrefix + "transaction"}})
	if err != nil {
		t.Fatal(err)
	}
	return h
}
