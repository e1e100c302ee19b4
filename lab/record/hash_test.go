package record

import (
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// TestExperimentHash: the hash changes with what runs, not with the path
// it was read from nor with the binary a variant measures.
func TestExperimentHash(t *testing.T) {
	base := func() lab.Experiment {
		return lab.Experiment{Name: "versions", Scenarios: []string{"GETSingle"},
			Variants: []lab.Variant{{Name: "build", Baseline: true, PostgREST: map[string]string{"server-timing-enabled": "true"}}}}
	}
	a := base()
	h := ExperimentHash(a)
	b := base()
	b.Source = "/elsewhere/versions.toml"
	c := base()
	c.Variants[0].Binary = "/work/shared/postgrest/postgrest-14.17"
	d := base()
	d.Variants[0].Binary = "/work/shared/postgrest/postgrest"
	if ExperimentHash(b) != h || ExperimentHash(c) != h || ExperimentHash(d) != h {
		t.Errorf("the source path or a variant's binary changed the hash")
	}
	e := base()
	e.Scenarios = []string{"GETSingleEmbed"}
	if ExperimentHash(e) == h {
		t.Error("another scenario, the same hash")
	}
}
