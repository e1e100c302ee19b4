package history_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/history"
	"github.com/pgrst-lab/pgrst-lab/lab/stats/statstest"
)

// Runs of lab track --reference on a machine whose speed swings by 30 %
// from run to run: the tracked build gets 20 % more CPU per request from
// commit 6 on. The ratio build ÷ reference has the one change point, at
// that commit; the builds' own series, which the swing moves, have none;
// the runs are named by the tracked build's commit, not the reference's.
func TestRelativeSeriesAgainstAReference(t *testing.T) {
	const n, at = 12, 6
	var runs []history.Run
	var order []string
	for i := range n {
		drift := 1.0
		if i%2 == 1 {
			drift = 1.3
		}
		step := 1.0
		if i >= at {
			step = 1.2
		}
		run := statstest.Run(statstest.Spec{Experiment: "binaries", Scenarios: []string{"targets"}, Trials: 8, Noise: 0.01, Seed: uint64(i + 1),
			Variants: []statstest.Variant{
				{Name: lab.ReferenceVariant, Baseline: true, Rate: 1000, P50Ms: 2, ServerUs: 400 * drift, DBUs: 300 * drift, RSSMB: 60},
				{Name: lab.TrackedVariant, Rate: 1000, P50Ms: 2, ServerUs: 400 * drift * step, DBUs: 300 * drift * step, RSSMB: 60},
			}})
		sha := fmt.Sprintf("%040x", i+1)
		order = append(order, sha)
		for j := range run.Variants {
			if run.Variants[j].Name == lab.TrackedVariant {
				run.Variants[j].Build = lab.Build{Commit: sha}
			} else {
				run.Variants[j].Build = lab.Build{Commit: strings.Repeat("f", 40)}
			}
		}
		runs = append(runs, history.Run{ID: fmt.Sprint(i), Run: run})
	}
	h, err := history.Analyse("binaries", runs, history.Options{By: history.ByCommit, Commits: order, Metrics: []string{"cpu"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Groups) != 1 {
		t.Fatalf("groups %d (apart %d, warnings %v), want one", len(h.Groups), len(h.Apart), h.Warnings)
	}
	var rel *history.Series
	for i, s := range h.Groups[0].Series {
		switch s.Variant {
		case history.RelativeVariant:
			rel = &h.Groups[0].Series[i]
		default:
			if len(s.Changes) > 0 {
				t.Errorf("%s: change points %d, want none on a build's own series", s.Name(), len(s.Changes))
			}
		}
	}
	if rel == nil {
		t.Fatalf("no %s series among %d", history.RelativeVariant, len(h.Groups[0].Series))
	}
	if len(rel.Changes) != 1 || rel.Changes[0].After.Commit != order[at] || rel.Changes[0].Pct < 15 || rel.Changes[0].Pct > 25 {
		t.Fatalf("ratio series changes %+v, want one of about +20 %% at commit %d", rel.Changes, at+1)
	}
	if p := rel.Points[0]; p.Median < 0.97 || p.Median > 1.03 || !(p.MDEPct < 5) {
		t.Errorf("first ratio %.3f (MDE %.1f %%), want about 1 with a small MDE", p.Median, p.MDEPct)
	}
}
