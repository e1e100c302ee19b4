package lab

import (
	"strings"
	"testing"
	"time"
)

// Actions are checked where they are written, and a shortened trial keeps
// them at their places in it.
func TestActionsValidateAndScale(t *testing.T) {
	e := validExperiment()
	e.Actions = []Action{{At: 2 * time.Second, Do: ActionNotify}, {At: 4 * time.Second, Do: ActionSQL, SQL: "LOCK TABLE artist", Hold: time.Second}}
	if errs := e.Validate(); len(errs) != 0 {
		t.Fatalf("valid actions: %v", errs)
	}
	e.Actions = []Action{{At: 10 * time.Second, Do: "reload"}, {Do: ActionSQL}, {Do: ActionNotify, SQL: "SELECT 1", Hold: time.Second}}
	e.Trials.Order = OrderDuet
	var got []string
	for _, err := range e.Validate() {
		got = append(got, err.Error())
	}
	all := strings.Join(got, "\n")
	for _, want := range []string{`action[0].do: "reload": must be one of notify, restart, sql`, "action[0].at: 10s must be within the measured part",
		`action[1].sql: is required with do = "sql"`, `action[2].sql: is required with do = "sql" and only then`,
		`action[2].hold: is a duration for do = "sql" only`, "actions act on the one target"} {
		if !strings.Contains(all, want) {
			t.Errorf("errors lack %q:\n%s", want, all)
		}
	}
	e = validExperiment()
	e.Actions = []Action{{At: 8 * time.Second, Do: ActionSQL, SQL: "x", Hold: 3 * time.Second}}
	e.ScaleActions(5 * time.Second) // from the default 10 s
	if a := e.Actions[0]; a.At != 4*time.Second || a.Hold != 1500*time.Millisecond {
		t.Errorf("scaled to 5 s of 10: at %v hold %v, want 4s and 1.5s", a.At, a.Hold)
	}
	if err := checkActions(e, nil); err == nil || !strings.Contains(err.Error(), "local server side") {
		t.Errorf("actions on a server that cannot act: %v", err)
	}
}
