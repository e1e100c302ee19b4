package reconcile

import (
	"strings"

	"github.com/pgrst-lab/pgrst-lab/internal/ghcrts"
	"github.com/pgrst-lab/pgrst-lab/lab"
)

// rtsNote says, as a change of the variant that the report lists, what a
// variant's GHC runtime options (+RTS ... -RTS arguments, GHCRTS) do on the
// reference server (package ghcrts: -N<n> sets GOMAXPROCS, everything else
// is ignored). On real PostgREST it says nothing: the options reach the
// GHC runtime as given.
func rtsNote(reference bool, v lab.Variant) []lab.Change {
	if !reference {
		return nil
	}
	args, _ := ghcrts.Split(v.Args)
	opts := append(ghcrts.Env(v.Env["GHCRTS"]), args...)
	if len(opts) == 0 {
		return nil
	}
	var used, ignored []string
	for _, o := range opts {
		if _, ok := ghcrts.Procs(o); ok {
			used = append(used, o+" sets GOMAXPROCS")
		} else {
			ignored = append(ignored, o)
		}
	}
	msg := "postgrest-mini has no GHC runtime"
	if len(used) > 0 {
		msg += ": " + strings.Join(used, ", ")
	}
	if len(ignored) > 0 {
		msg += "; ignored: " + strings.Join(ignored, " ")
	}
	return []lab.Change{{Where: "note", Key: "GHC RTS options", To: msg}}
}
