package stats

import (
	"fmt"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// Unreliable says why a run's figures cannot be quoted as they stand (""
// when they can): trials other work disturbed were kept for want of clean
// rounds, or a sustained limit's 95 % interval is wider than
// LimitPrecision. `lab run --strict` exits non-zero on it.
func Unreliable(run *lab.Run) string {
	var why []string
	kept := 0
	for _, t := range run.Trials {
		if in := t.Interference; in != nil && in.Flagged && t.Error == "" {
			kept++
		}
	}
	if kept > 0 {
		why = append(why, fmt.Sprintf("%d trial(s) disturbed by other work were kept for want of clean rounds", kept))
	}
	if run.Experiment.Load.Limit.Sustained() {
		for _, r := range Limits(run) {
			if !r.Precise {
				why = append(why, fmt.Sprintf("%s (%s): its limit's interval is wider than ±%.0f%% after %d valid trial(s)", r.Scenario, r.Variant, 100*LimitPrecision, r.Rate.N))
			}
		}
	}
	return strings.Join(why, "; ")
}
