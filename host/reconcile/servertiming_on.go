package reconcile

import (
	"context"
	"fmt"
	"io"
	"maps"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/postgrest"
)

// serverTimingKey is PostgREST's key for the Server-Timing header, whose
// phases (jwt, parse, plan, transaction, response) the reports break
// requests down by.
const serverTimingKey = "server-timing-enabled"

// ServerTimingOn turns the Server-Timing header on in every variant of a
// profiling run or of `lab ab`, so that the report breaks the time down by
// phase without an experiment file saying so: only when every variant's
// executable (its own, else the stack's, bin) lists the key in its
// --dump-config, and no variant sets the key itself. Each changed variant's
// description says so, and so does a line on w; nothing changes (and w
// says why) when one executable does not know the key, so that the variants
// still differ only in what the user asked.
func ServerTimingOn(ctx context.Context, e *lab.Experiment, bin string, w io.Writer) {
	for _, v := range e.Variants {
		if _, set := v.PostgREST[serverTimingKey]; set {
			return
		}
		if _, set := v.Env[postgrest.EnvVar(serverTimingKey)]; set {
			return
		}
	}
	asked := map[string]bool{} // executables that list the key
	for _, v := range e.Variants {
		b := v.Binary
		if b == "" {
			b = bin
		}
		if b == "" {
			return // an external target: its executable is not known here
		}
		if asked[b] {
			continue
		}
		keys, err := BinaryConfigKeys(ctx, b)
		if err != nil || !keys[serverTimingKey] {
			fmt.Fprintf(w, "%s: no Server-Timing phases: variant %s's executable does not list %s in its --dump-config\n", e.Name, v.Name, serverTimingKey)
			return
		}
		asked[b] = true
	}
	for i := range e.Variants {
		v := &e.Variants[i]
		v.PostgREST = maps.Clone(v.PostgREST)
		if v.PostgREST == nil {
			v.PostgREST = map[string]string{}
		}
		v.PostgREST[serverTimingKey] = "true"
		v.Description = joinNonEmpty(v.Description, serverTimingKey+" = true (set by the lab for the phase breakdown)")
	}
	fmt.Fprintf(w, "%s: %s = true in every variant, for the Server-Timing phase breakdown\n", e.Name, serverTimingKey)
}

func joinNonEmpty(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
