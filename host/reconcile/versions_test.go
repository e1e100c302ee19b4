package reconcile

import (
	"context"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/lab"
)

// TestVariantKeysCheckedAgainstTheTargetsVersion: before the first trial,
// a variant's PostgREST key is checked against the version the real binary
// prints: jwt-cache-max-lifetime is refused by 14.x, naming its
// replacement, and accepted by 13.x; jwt-cache-max-entries the other way
// round.
func TestVariantKeysCheckedAgainstTheTargetsVersion(t *testing.T) {
	labtest.EachPostgREST(t, func(t *testing.T, real labtest.Real) {
		l := &Server{cfg: Config{Binary: real.Path}}
		v14 := !strings.HasPrefix(real.Version, "13.")
		for _, c := range []struct {
			key   string
			in    bool   // the version has it
			words string // the refusal says
		}{
			{"jwt-cache-max-lifetime", !v14, "jwt-cache-max-lifetime was removed in 14.0: use jwt-cache-max-entries (the target is PostgREST " + real.Version + ")"},
			{"jwt-cache-max-entries", v14, "jwt-cache-max-entries came in PostgREST 14.0 (the target is PostgREST " + real.Version + ")"},
			{"server-reuseport", false, "server-reuseport came in PostgREST 16.0"},
			{"db-pool", true, ""},
		} {
			err := l.CheckVariants(context.Background(), []lab.Variant{{Name: "b", PostgREST: map[string]string{c.key: "1"}}})
			if c.in && err != nil {
				t.Errorf("%s on %s: %v", c.key, real.Version, err)
			}
			if !c.in && (err == nil || !strings.Contains(err.Error(), `variant "b": postgrest: `+c.words)) {
				t.Errorf("%s on %s: %v, want %q", c.key, real.Version, err, c.words)
			}
		}
	})
}
