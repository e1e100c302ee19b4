package reconcile

import (
	"reflect"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// TestWantedValidatesBeforeAnything: a variant's errors come from wanted,
// which touches nothing, and are the ones Apply returned before.
func TestWantedValidatesBeforeAnything(t *testing.T) {
	l := &Server{cfg: Config{Config: "postgrest.conf", TargetUnit: "postgrest.service"},
		original: []byte("db-uri = \"postgres://authenticator@localhost/chinook\"\ndb-pool = 10\n")}
	for _, c := range []struct {
		v    lab.Variant
		want string
	}{
		{lab.Variant{PostgREST: map[string]string{"db-pol": "3"}}, "db-pol"},
		{lab.Variant{Env: map[string]string{"A": "1\nB=2"}}, "A"},
		{lab.Variant{Binary: "/tmp/postgrest"}, "the lab did not create unit postgrest.service"},
		{lab.Variant{PGCPUAffinity: "0"}, "no PostgreSQL unit is known to pin"},
	} {
		if _, err := l.wanted(c.v); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error with %q", c.v, err, c.want)
		}
	}
	in, err := l.wanted(lab.Variant{PostgREST: map[string]string{"db-pool": "3"}, Env: map[string]string{"PGRST_APP_SETTINGS_B": "2", "GHCRTS": "-N1"}})
	if err != nil || !strings.Contains(string(in.want.config), "db-pool = 3") || !reflect.DeepEqual(in.want.env, []string{"GHCRTS=-N1", "PGRST_APP_SETTINGS_B=2"}) ||
		in.want.argv != nil || len(in.config) != 1 || len(in.unit) != 2 {
		t.Errorf("wanted: %v %+v", err, in)
	}
}
