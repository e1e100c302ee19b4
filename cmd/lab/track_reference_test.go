package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/history"
	"github.com/pgrst-lab/pgrst-lab/store"
)

// lab track --reference REF on a real repository of three commits, the
// third slow (its wrapper of the real PostgREST spins about 4 ms of
// database CPU before each request): each commit is measured beside the
// first commit's build, both served at once (the bundled binaries: a duet
// in efficiency mode on the load test), and stored. The stored runs are a
// series of ratios build ÷ reference: about 1 for the first two commits,
// well above 1 for the third, whatever the machine's speed did between
// runs.
func TestTrackBesideAReference(t *testing.T) {
	// The load test's lines cost more than GETSingle: spin about 4 ms, so
	// that the step stands well above a 3-round run's noise (±10 %).
	dir := spinningStackAt(t, 4000)
	storeURI := labtest.NewDB(t).UnixURI("postgres")
	repo, shas := trackRepo(t, 3, 3)
	out, err := runLab(t, "track", "--repo", repo, "--build", "sh build.sh", "--build-env", "LAB_POSTGREST,TRACK_PRE_REQUEST", "--reference", shas[0], "--store", storeURI, "--dir", dir,
		"--results", t.TempDir(), "--metrics", "cpu", "--min-trials", "3", "--max-trials", "3", "--duration", "1s", "--warmup", "0s",
		"--min-rate", tinyRate, "--max-rate", tinyRate)
	t.Logf("lab track --reference:\n%s", out)
	if err != nil {
		t.Fatalf("lab track --reference: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := store.Open(ctx, storeURI)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	runs, err := s.HistoryRuns(ctx, "binaries", "")
	if err != nil || len(runs) != 3 {
		t.Fatalf("stored runs of binaries: %d (%v), want 3", len(runs), err)
	}
	for _, r := range runs {
		if r.Run.Experiment.Trials.Order != lab.OrderDuet || lab.MeasuredBuild(r.Run, lab.ReferenceVariant).Commit != shas[0] {
			t.Errorf("run %s: order %s, reference build %+v; want a duet beside commit 1", r.ID, r.Run.Experiment.Trials.Order, lab.MeasuredBuild(r.Run, lab.ReferenceVariant))
		}
	}
	h, err := history.Analyse("binaries", runs, history.Options{By: history.ByCommit, Commits: shas, Metrics: []string{"cpu"}})
	if err != nil {
		t.Fatal(err)
	}
	var ratio []float64
	for _, g := range h.Groups {
		for _, sr := range g.Series {
			if sr.Variant == history.RelativeVariant {
				for _, p := range sr.Points {
					ratio = append(ratio, p.Median)
					if p.Commit != shas[len(ratio)-1] {
						t.Errorf("point %d is of %s, want commit %d", len(ratio), p.Commit, len(ratio))
					}
				}
			}
		}
	}
	t.Logf("CPU per request build ÷ reference per commit: %.3f", ratio)
	if len(ratio) != 3 || ratio[0] > 1.3 || ratio[0] < 0.77 || ratio[1] > 1.3 || ratio[2] < 1.3*max(ratio[0], ratio[1]) {
		t.Errorf("CPU per request build ÷ reference per commit %v (groups %d, warnings %v); want about 1, 1, then well above", ratio, len(h.Groups), h.Warnings)
	}
	if !strings.Contains(out, "3 commits to measure") {
		t.Errorf("no plan line")
	}
}
