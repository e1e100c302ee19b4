package history_test

import (
	"github.com/pgrst-lab/pgrst-lab/lab/history/historytest"
	"math"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab/history"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

func series(t *testing.T, h *history.History, name string) *history.Series {
	t.Helper()
	for gi := range h.Groups {
		for i := range h.Groups[gi].Series {
			if s := &h.Groups[gi].Series[i]; s.Name() == name {
				return s
			}
		}
	}
	t.Fatalf("no series %q", name)
	return nil
}

func TestSeriesAndChangePoint(t *testing.T) {
	runs := historytest.StepRuns(12, 7, -0.10)
	h, err := history.Analyse("socket-vs-tcp", runs, history.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if h.By != history.ByCommit || len(h.Groups) != 1 || h.Runs != 12 {
		t.Fatalf("by %q, %d groups, %d runs", h.By, len(h.Groups), h.Runs)
	}
	// 2 variants × 3 headline metrics.
	if n := len(h.Groups[0].Series); n != 6 {
		t.Errorf("%d series, want 6", n)
	}
	s := series(t, h, "GETSingle / unix / throughput")
	if len(s.Points) != 12 {
		t.Fatalf("%d points", len(s.Points))
	}
	for _, p := range s.Points {
		if !(p.Lo <= p.Median && p.Median <= p.Hi) || p.N != 6 || math.IsInf(p.MDEPct, 0) || p.MDEPct <= 0 {
			t.Errorf("point %s: %v [%v, %v] n=%d mde %v", p.ID, p.Median, p.Lo, p.Hi, p.N, p.MDEPct)
		}
	}
	if len(s.Changes) != 1 {
		t.Fatalf("changes %+v, want one", s.Changes)
	}
	c := s.Changes[0]
	if c.Index != 7 || c.Before.I != 6 || c.After.I != 7 || c.Outcome != stats.Worse || !c.ExceedsMDE || math.Abs(c.Pct+10) > 2 {
		t.Errorf("change %+v", c)
	}
	if c.After.Commit != runs[7].Run.Variants[0].Build.Commit || c.Before.Commit != runs[6].Run.Variants[0].Build.Commit {
		t.Errorf("range %s..%s", c.Before.Commit, c.After.Commit)
	}
	// p99 goes up as throughput goes down: a regression too.
	if p := series(t, h, "GETSingle / unix / latency p99"); len(p.Changes) != 1 || p.Changes[0].Outcome != stats.Worse || p.Changes[0].Pct <= 0 {
		t.Errorf("p99 changes %+v", p.Changes)
	}
	if tcp := series(t, h, "GETSingle / tcp / throughput"); len(tcp.Changes) != 0 {
		t.Errorf("tcp did not change: %+v", tcp.Changes)
	}
}

func TestChangeBelowMDE(t *testing.T) {
	runs := historytest.StepRuns(12, 6, -0.10)
	for i := range runs { // noisy runs: an MDE far above the step
		for j := range runs[i].Run.Trials {
			tr := &runs[i].Run.Trials[j]
			if tr.Variant == "unix" {
				tr.Load.Rate *= 1 + 0.6*float64(j%3-1)
			}
		}
	}
	h, err := history.Analyse("socket-vs-tcp", runs, history.Options{Metrics: []string{"rate"}})
	if err != nil {
		t.Fatal(err)
	}
	s := series(t, h, "GETSingle / unix / throughput")
	if len(s.Changes) != 1 || s.Changes[0].ExceedsMDE {
		t.Fatalf("changes %+v: want one below the MDE", s.Changes)
	}
	if c := s.Changes[0]; !strings.Contains(c.Verdict(), "smaller than the runs' MDE") || !strings.Contains(c.What(), "(below MDE)") {
		t.Errorf("the change is not said to be below the MDE: %q, %q", c.What(), c.Verdict())
	}
}

func TestHostsAndEditionsNotMixed(t *testing.T) {
	var runs []history.Run
	for i := range 8 {
		runs = append(runs, historytest.Run(historytest.Synth{Rate: 2600, Commit: "a", Day: i, Host: "lab1", Hash: "h1"}, uint64(i+1)))
		runs = append(runs, historytest.Run(historytest.Synth{Rate: 2000, Commit: "a", Day: i, Host: "lab2", Hash: "h1"}, uint64(i+20)))
	}
	for i := 8; i < 12; i++ {
		runs = append(runs, historytest.Run(historytest.Synth{Rate: 2600, Commit: "a", Day: i, Host: "lab1", Hash: "h2"}, uint64(i+40)))
	}
	h, err := history.Analyse("socket-vs-tcp", runs, history.Options{Metrics: []string{"rate"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Groups) != 3 {
		t.Fatalf("%d groups, want lab1/h1, lab1/h2, lab2/h1", len(h.Groups))
	}
	warn := strings.Join(h.Warnings, "\n")
	if !strings.Contains(warn, "2 machines") || !strings.Contains(warn, "edited") {
		t.Errorf("warnings %q", warn)
	}
	for _, g := range h.Groups {
		for _, s := range g.Series {
			for _, p := range s.Points {
				if p.Hostname != g.Hostname || p.Hash != g.Hash {
					t.Errorf("group %s/%s holds a point of %s/%s", g.Hostname, g.Hash, p.Hostname, p.Hash)
				}
			}
		}
		if want := g.Hostname == "lab2" || g.Hash == "h2"; g.Current != want {
			t.Errorf("group %s/%s current %v", g.Hostname, g.Hash, g.Current)
		}
	}
	for _, host := range []string{"lab2", "id-lab2"} {
		h, err := history.Analyse("socket-vs-tcp", runs, history.Options{Host: host})
		if err != nil || len(h.Groups) != 1 || h.Groups[0].Hostname != "lab2" || h.Runs != 8 || len(h.Warnings) != 0 {
			t.Errorf("--host %s: %v %+v", host, err, h)
		}
	}
	if _, err := history.Analyse("socket-vs-tcp", runs, history.Options{Host: "nope"}); err == nil {
		t.Error("--host nope: no error")
	}
}

func ids(h *history.History) string {
	var out []string
	for _, e := range h.Groups[0].Runs {
		out = append(out, e.Commit+"@"+e.Version)
	}
	return strings.Join(out, " ")
}

func TestOrderByVersionAndTime(t *testing.T) {
	vs := []string{"PostgREST 12.10.0", "v12.2.0", "PostgREST 12.2.0-rc1", "PostgREST 9.0.1", "nightly"}
	var runs []history.Run
	for i, v := range vs {
		runs = append(runs, historytest.Run(historytest.Synth{Rate: 2600, Version: v, Day: i}, uint64(i+1)))
	}
	h, err := history.Analyse("x", runs, history.Options{By: history.ByVersion})
	if err != nil {
		t.Fatal(err)
	}
	want := "@PostgREST 9.0.1 @PostgREST 12.2.0-rc1 @v12.2.0 @PostgREST 12.10.0 @nightly"
	if got := ids(h); got != want {
		t.Errorf("by version:\n got %s\nwant %s", got, want)
	}
	h, _ = history.Analyse("x", runs, history.Options{})
	if h.By != history.ByVersion {
		t.Errorf("auto: by %q, want version (every run has one, no commits)", h.By)
	}
	h, _ = history.Analyse("x", runs, history.Options{By: history.ByTime})
	if got := ids(h); got != "@"+strings.Join(vs, " @") {
		t.Errorf("by time: %s", got)
	}
}

func TestOrderByCommitWithoutRepo(t *testing.T) {
	// Commits in the order first measured; a commit's runs together.
	cs := []string{"c1", "c2", "c1", "", "c3", "c2"}
	var runs []history.Run
	for i, c := range cs {
		runs = append(runs, historytest.Run(historytest.Synth{Rate: 2600, Commit: c, Day: i}, uint64(i+1)))
	}
	h, err := history.Analyse("x", runs, history.Options{By: history.ByCommit})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range h.Groups[0].Runs {
		got = append(got, e.Commit+"/"+e.Started.Format("02"))
	}
	if got, want := strings.Join(got, " "), "c1/30 c1/02 c2/01 c2/05 /03 c3/04"; got != want {
		t.Errorf("by commit: %q, want %q", got, want)
	}
	if _, err := history.ParseOrder("commits"); err == nil {
		t.Error("ParseOrder(commits): no error")
	}
}
