package calibrate

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

func part(dir string, started time.Time, rate float64, outs ...Outcome) Part {
	r := &Result{Experiment: "socket-vs-tcp", Design: "paired, sequential", Started: started, Finished: started.Add(time.Hour),
		Load:   lab.Load{Model: lab.ModelEfficiency, Duration: 8 * time.Second, Utilisation: 0.65},
		Trials: lab.Trials{Min: 6, Max: 24, Order: lab.OrderInterleaved, Alpha: 0.05},
		AARuns: 1, Effects: []Effect{{Pct: 1, Runs: 1}}, Injection: InjectDatabase,
		Baseline: Baseline{Rate: rate, CPUs: 2}, Sizing: &Sizing{Scale: 0.8}, Outcomes: outs}
	return Part{Dir: dir, Res: r}
}

// Two sessions' series pool into one tally; each keeps its own sizing.
func TestMergePoolsOutcomes(t *testing.T) {
	t0 := time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
	later := part("/r/b", t0.Add(24*time.Hour), 5400,
		Outcome{EffectPct: 0, Rounds: 24, Dir: "runs/01"},
		Outcome{EffectPct: 1, Rounds: 12, Significant: true, Outcome: stats.Worse, Dir: "runs/02"})
	earlier := part("/r/a", t0, 2500,
		Outcome{EffectPct: 0, Rounds: 24, Significant: true, Outcome: stats.Better},
		Outcome{EffectPct: 1, Rounds: 24})
	m, err := Merge([]Part{later, earlier})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Rows) != 2 || m.Rows[0].Runs != 2 || m.Rows[0].Hits != 1 || m.Rows[1].Runs != 2 || m.Rows[1].Hits != 1 {
		t.Fatalf("rows %+v: want A/A 1 of 2 (a false positive), 1%% 1 of 2", m.Rows)
	}
	if m.AARuns != 2 || len(m.Effects) != 1 || m.Effects[0].Runs != 2 {
		t.Errorf("plan: %d A/A runs, effects %+v", m.AARuns, m.Effects)
	}
	if len(m.Sources) != 2 || m.Sources[0].Dir != "/r/a" || m.Sources[0].Rate != 2500 || m.Sources[1].Scale != 0.8 {
		t.Errorf("sources %+v: want the earlier part first, each with its baseline and scale", m.Sources)
	}
	if !m.Started.Equal(t0) || !m.Finished.Equal(t0.Add(25*time.Hour)) {
		t.Errorf("span %v to %v", m.Started, m.Finished)
	}
	if got := m.Outcomes[3].Dir; got != filepath.Join("/r/b", "runs/02") {
		t.Errorf("outcome dir %q: want it under its part", got)
	}
}

// Parts of different designs do not pool; the error names the key.
func TestMergeRefusesAnotherDesign(t *testing.T) {
	t0 := time.Now()
	for _, c := range []struct {
		edit func(*Result)
		want string
	}{
		{func(r *Result) { r.Trials.Max = 12 }, "trials.max is 24 there and 12 here"},
		{func(r *Result) { r.Trials.SpeedAdjust = new(bool) }, "trials.speed_adjust is unset there and false here"},
		{func(r *Result) { r.Load.Duration = 4 * time.Second }, "load.duration is 8s there and 4s here"},
		{func(r *Result) { r.Experiment = "log-level" }, "experiment is socket-vs-tcp there and log-level here"},
		{func(r *Result) { r.Injection = InjectServer }, "injection is database there and server here"},
		{func(r *Result) { r.Design = "unpaired" }, `test is "paired, sequential" there and "unpaired" here`},
	} {
		a, b := part("/r/a", t0, 1), part("/r/b", t0, 1)
		c.edit(b.Res)
		_, err := Merge([]Part{a, b})
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "/r/a and /r/b") {
			t.Errorf("got %v, want %q", err, c.want)
		}
	}
	if _, err := Merge([]Part{part("/r/a", t0, 1)}); err == nil {
		t.Error("one part merged")
	}
}

// The random order's seed is not part of the design.
func TestMergeIgnoresTheSeed(t *testing.T) {
	a, b := part("/r/a", time.Now(), 1), part("/r/b", time.Now(), 1)
	b.Res.Trials.Seed = 42
	if _, err := Merge([]Part{a, b}); err != nil {
		t.Error(err)
	}
}

// A part whose first run fell back to Mann-Whitney U on some rows (a
// failed trial) states its test differently, but ran the same design; a
// part of another test still does not pool.
func TestMergeIgnoresTheFirstRunsTestMix(t *testing.T) {
	a, b := part("/r/a", time.Now(), 1), part("/r/b", time.Now(), 1)
	a.Res.Design = stats.MethodPaired + ", alpha 0.05; group-sequential"
	b.Res.Design = stats.MethodPairedMixed + ", alpha 0.05; group-sequential"
	if _, err := Merge([]Part{a, b}); err != nil {
		t.Error(err)
	}
	b.Res.Design = "Mann-Whitney U test (unpaired), alpha 0.05; group-sequential"
	if _, err := Merge([]Part{a, b}); err == nil {
		t.Error("an unpaired part pooled with a paired one")
	}
}
