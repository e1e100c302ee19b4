package lab

import (
	"strings"
	"testing"
)

// Each binary becomes a variant with the file's baseline settings, the
// first the baseline; a name given twice is refused.
func TestUseBinaries(t *testing.T) {
	e := &Experiment{Variants: []Variant{
		{Name: "other", PostgREST: map[string]string{"db-pool": "9"}},
		{Name: "base", Baseline: true, PostgREST: map[string]string{"db-pool": "1"}},
	}}
	bins := []Binary{{Name: "a", Path: "/bin/a"}, {Name: "pr", Path: "/tmp/pr", Ref: "HEAD", Commit: "2222222bbbb", Command: "nix build"}}
	if err := e.UseBinaries(bins); err != nil {
		t.Fatal(err)
	}
	if len(e.Variants) != 2 {
		t.Fatalf("variants %+v", e.Variants)
	}
	a, pr := e.Variants[0], e.Variants[1]
	if !a.Baseline || pr.Baseline || a.Binary != "/bin/a" || pr.Binary != "/tmp/pr" {
		t.Errorf("variants %+v", e.Variants)
	}
	if a.PostgREST["db-pool"] != "1" || pr.PostgREST["db-pool"] != "1" {
		t.Errorf("the baseline's settings are not every binary's: %v %v", a.PostgREST, pr.PostgREST)
	}
	pr.PostgREST["db-pool"] = "5"
	if a.PostgREST["db-pool"] != "1" {
		t.Error("the variants share one map")
	}
	if a.Description != "--binary /bin/a" || pr.Description != "HEAD (2222222), built with `nix build`" {
		t.Errorf("descriptions %q, %q", a.Description, pr.Description)
	}
	for _, bad := range [][]Binary{{{Name: "x", Path: "/x"}}, {{Name: "x", Path: "/x"}, {Name: "x", Path: "/y"}}} {
		if err := (&Experiment{}).UseBinaries(bad); err == nil {
			t.Errorf("UseBinaries(%+v) = nil", bad)
		}
	}
}

// NoteBinaries records each variant's binary and cleaned version, and what
// a built one was built from.
func TestNoteBinaries(t *testing.T) {
	run := &Run{Variants: []VariantInfo{{Name: "a"}, {Name: "pr"}, {Name: "plain"}}}
	variants := []Variant{{Name: "a", Binary: "/bin/a"}, {Name: "pr", Binary: "/tmp/pr"}, {Name: "plain"}}
	versions := map[string]string{"a": "PostgREST 13.0.8", "pr": "PostgREST 14.17\x1b[31m"}
	bins := []Binary{{Name: "a", Path: "/bin/a"}, {Name: "pr", Path: "/tmp/pr", Ref: "HEAD", Commit: "2222222bbbb"}}
	NoteBinaries(run, variants, versions, "/src/postgrest", bins)
	a, pr, plain := run.Variants[0], run.Variants[1], run.Variants[2]
	if a.Binary != "/bin/a" || a.Version != "PostgREST 13.0.8" || a.Build.Commit != "" {
		t.Errorf("a: %+v", a)
	}
	if pr.Binary != "/tmp/pr" || strings.Contains(pr.Version, "\x1b") || !strings.HasPrefix(pr.Version, "PostgREST 14.17") {
		t.Errorf("pr's binary or version: %+v", pr)
	}
	if pr.Build.Repo != "/src/postgrest" || pr.Build.Ref != "HEAD" || pr.Build.Commit != "2222222bbbb" {
		t.Errorf("pr's build: %+v", pr.Build)
	}
	if plain.Binary != "" || plain.Version != "" {
		t.Errorf("a variant without a binary: %+v", plain)
	}
}

// A duet serves two: three binaries run one after the other, in a new
// order every round.
func TestUseBinariesThreeLeaveTheDuet(t *testing.T) {
	e := &Experiment{Trials: Trials{Order: OrderDuet}, Variants: []Variant{{Name: "a", Baseline: true}, {Name: "b"}}}
	if err := e.UseBinaries([]Binary{{Name: "x", Path: "/x"}, {Name: "y", Path: "/y"}}); err != nil || e.Trials.Order != OrderDuet {
		t.Fatalf("two binaries: %v, order %s", err, e.Trials.Order)
	}
	if err := e.UseBinaries([]Binary{{Name: "x", Path: "/x"}, {Name: "y", Path: "/y"}, {Name: "z", Path: "/z"}}); err != nil || e.Trials.Order != OrderRandom {
		t.Fatalf("three binaries: %v, order %s", err, e.Trials.Order)
	}
}

// Issue 55: a comparison of executables by path is titled by what ran,
// not by the file's "release vs branch" (base need be no release); built
// refs keep the title their build gives (BinariesTitle).
func TestUseBinariesTitle(t *testing.T) {
	e := &Experiment{Title: "PostgREST release vs branch build", Variants: []Variant{{Name: "release", Baseline: true}}}
	if err := e.UseBinaries([]Binary{{Name: "base", Path: "/b/base"}, {Name: "pr", Path: "/b/pr"}}); err != nil {
		t.Fatal(err)
	}
	if e.Title != "PostgREST pr vs base" {
		t.Errorf("title %q, want %q", e.Title, "PostgREST pr vs base")
	}
	built := &Experiment{Title: "HEAD (2222222) vs main (1111111)", Variants: []Variant{{Name: "release", Baseline: true}}}
	if err := built.UseBinaries([]Binary{{Name: "base", Path: "/b/base", Ref: "main", Commit: "1111111"}, {Name: "pr", Path: "/b/pr", Ref: "HEAD", Commit: "2222222"}}); err != nil {
		t.Fatal(err)
	}
	if built.Title != "HEAD (2222222) vs main (1111111)" {
		t.Errorf("a built comparison's title became %q", built.Title)
	}
}
