package lab

import (
	"maps"
	"slices"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/lab/postgrest"
)

// PostgRESTKeys lists every PostgREST config key the experiment sets: its
// variants' and its sweep's (postgrest.<key> axes), sorted.
func (e *Experiment) PostgRESTKeys() []string {
	set := map[string]bool{}
	for _, v := range e.Variants {
		for k := range v.PostgREST {
			set[k] = true
		}
	}
	if e.Sweep != nil {
		for _, ax := range []*SweepAxis{&e.Sweep.SweepAxis, e.Sweep.Cross} {
			if ax != nil {
				if k, ok := strings.CutPrefix(ax.Key, "postgrest."); ok {
					set[k] = true
				}
			}
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// Suits is the PostgREST versions that have every key the experiment
// sets (postgrest.Suits).
func (e *Experiment) Suits() postgrest.Range { return postgrest.Suits(e.PostgRESTKeys()) }
