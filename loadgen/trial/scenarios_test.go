package trial

import (
	"slices"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/loadgen"
)

// The lab validates experiments against lab.BuiltinScenarios (it imports
// no adapter); the generator sends loadgen's table. This package, which
// joins the two, holds them to one list, in one order.
func TestBuiltinScenariosAreTheGenerators(t *testing.T) {
	if got := loadgen.BuiltinNames(); !slices.Equal(got, lab.BuiltinScenarios) {
		t.Fatalf("loadgen's built-in scenarios %v, lab's %v: one list", got, lab.BuiltinScenarios)
	}
}
