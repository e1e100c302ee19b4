package lab

import (
	"strings"
	"testing"
)

// An experiment's [target] is as powerful as whoever runs lab: validate
// says what it will rewrite and restart, with the URI's password hidden.
func TestTargetTouches(t *testing.T) {
	got := Target{Unit: "postgrest.service", Config: "/etc/postgrest.conf",
		PGURI: "postgres://postgres:S3cret@127.0.0.1/app", PGUnit: "postgresql.service"}.Touches()
	for _, want := range []string{"rewrites /etc/postgrest.conf", "restarts postgrest.service", "may restart postgresql.service", "postgres:redacted@"} {
		if !strings.Contains(got, want) {
			t.Errorf("Touches: %q lacks %q", got, want)
		}
	}
	if strings.Contains(got, "S3cret") {
		t.Errorf("Touches shows the password: %q", got)
	}
	if n := (Target{}).Touches(); n != "" {
		t.Errorf("the local stack's target: %q, want no note", n)
	}
}
