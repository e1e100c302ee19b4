package experiments

import (
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// max_errors = 0 is "no failures" (the 2020 benchmark's criterion), a
// limit of its own: a search with it alone is valid, an efficiency run
// keeps it instead of putting the default 0.1 % in its place, and the
// limit is written "errors = 0". Leaving it out is still refused.
func TestMaxErrorsZeroIsALimit(t *testing.T) {
	file := func(model, limit string) string {
		return "name = \"x\"\nscenarios = [\"GETSingle\"]\n[load]\nmodel = \"" + model + "\"\nduration = \"2s\"\n" +
			"[load.limit]\n" + limit + "\n[[variant]]\nname = \"a\"\n"
	}
	e, err := Parse("search.toml", []byte(file("search", "max_errors = 0")), nil)
	if err != nil {
		t.Fatalf("max_errors = 0 refused: %v", err)
	}
	if l := e.Load.Limit; l.MaxErrors == nil || *l.MaxErrors != 0 {
		t.Fatalf("max_errors = %v, want set to 0", l.MaxErrors)
	}
	if got, want := e.Load.Limit.String(), "errors = 0, dropped = 0"; got != want {
		t.Errorf("limit %q, want %q", got, want)
	}

	e, err = Parse("efficiency.toml", []byte(file("efficiency", "max_errors = 0")), nil)
	if err != nil {
		t.Fatal(err)
	}
	if c := e.Load.CapacityLimit(); c.MaxErrors == nil || *c.MaxErrors != 0 || c.MaxDropped != nil {
		t.Errorf("capacity limit %s: max_errors = 0 replaced by the default", c)
	}
	e, err = Parse("default.toml", []byte(file("efficiency", "")), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := e.Load.CapacityLimit().String(), "errors ≤ 0.1 %, dropped ≤ 1 %"; got != want {
		t.Errorf("default capacity limit %q, want %q", got, want)
	}

	_, err = Parse("unset.toml", []byte(file("search", "min_rate = 10")), nil)
	if err == nil || !strings.Contains(err.Error(), `model "search" needs limit.p99`) {
		t.Errorf("a search without p99 or max_errors: %v", err)
	}
}

// A limit is printed as people write it: 100 × 1e-6 is 0.0001 %, not
// 9.999999999999999e-05%.
func TestLimitPrintedAsWritten(t *testing.T) {
	for _, c := range []struct {
		lim  lab.Limit
		want string
	}{
		{lab.Limit{MaxErrors: new(1e-6), MaxDropped: new(0.01)}, "errors ≤ 0.0001 %, dropped ≤ 1 %"},
		{lab.Limit{MaxErrors: new(0.001), MaxDropped: new(0.07)}, "errors ≤ 0.1 %, dropped ≤ 7 %"},
		{lab.Limit{P99: 50e6, MaxErrors: new(0.0), MaxRate: 400}, "p99 ≤ 50ms, errors = 0, dropped = 0, at most 400 req/s"},
	} {
		if got := c.lim.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.lim, got, c.want)
		}
	}
}
