package session

import (
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// A run knows what it measured: each variant's build from its own binary's
// --version or the target's, and the experiment's hash, which an edit
// changes and the file's path does not.
func TestIdentify(t *testing.T) {
	e := lab.Experiment{Name: "x", Source: "/a/x.toml", Variants: []lab.Variant{{Name: "a"}, {Name: "b", Binary: "/opt/pr"}}}
	run := &lab.Run{Experiment: e, Target: lab.TargetInfo{Version: "PostgREST 13.0.8"},
		Variants: []lab.VariantInfo{{Name: "a"}, {Name: "b", Binary: "/opt/pr", Version: "PostgREST 14.0 (abcdef1)"},
			{Name: "c", Build: lab.Build{Repo: "/src/postgrest", Ref: "main", Commit: "0123456789abcdef"}}}}
	identify(run)
	if got := run.Variants[0].Build; got != (lab.Build{Version: "13.0.8"}) {
		t.Errorf("variant a (the target's binary): %+v", got)
	}
	if got := run.Variants[1].Build; got != (lab.Build{Version: "14.0", Commit: "abcdef1"}) {
		t.Errorf("variant b (its own binary): %+v", got)
	}
	if got := run.Variants[2].Build; got != (lab.Build{Version: "13.0.8", Repo: "/src/postgrest", Ref: "main", Commit: "0123456789abcdef"}) {
		t.Errorf("variant c (built by the lab): %+v", got)
	}
	h := run.ExperimentHash
	if len(h) != 64 {
		t.Fatalf("experiment hash %q", h)
	}
	moved := *run
	moved.Experiment.Source = "/elsewhere/x.toml"
	identify(&moved)
	if moved.ExperimentHash != h {
		t.Error("the same experiment read from another path has another hash")
	}
	edited := *run
	edited.Experiment.Variants = append([]lab.Variant{}, e.Variants...)
	edited.Experiment.Variants[1].Args = []string{"+RTS", "-N1", "-RTS"}
	identify(&edited)
	if edited.ExperimentHash == h {
		t.Error("an edited experiment has the same hash")
	}
}
