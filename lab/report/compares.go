package report

import (
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// compares says whether run compares anything: it has two variants or
// more. A run of one variant (limits on one server, a single memory
// setting) has no verdict, and its reports show none of the verdicts'
// machinery: no test, no MDE, no empty verdict or results tables.
func compares(run *lab.Run) bool { return len(stats.VariantNames(run)) > 1 }
