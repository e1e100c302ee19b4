package trial

import (
	"slices"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/loadgen"
)

// A trial's partition pins the generator; without one the Loader's own
// CPUs (lab load --cpus) apply.
func TestLoaderCPUs(t *testing.T) {
	spec := lab.LoadSpec{Scenario: "GETSingle", Load: lab.Load{Model: lab.ModelClosed, Connections: 2, Duration: time.Second}}
	l := &Loader{CPUs: []int{1}, Target: loadgen.Target{URL: "http://127.0.0.1:1"}}
	cfg, err := l.config(spec)
	if err != nil || !slices.Equal(cfg.CPUs, []int{1}) {
		t.Fatalf("no partition: %v %v", cfg.CPUs, err)
	}
	spec.CPUs = []int{0}
	if cfg, err = l.config(spec); err != nil || !slices.Equal(cfg.CPUs, []int{0}) {
		t.Errorf("partition: %v %v, want [0]", cfg.CPUs, err)
	}
}
