package lab

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestRedactedHidesEveryPlantedSecret: the copy run.json, reports and the
// store get hides what package capability hides, in every variant's
// tables, in a sweep's template and in the target's pg_uri, and keeps what
// is no secret; the experiment itself is unchanged.
func TestRedactedHidesEveryPlantedSecret(t *testing.T) {
	secrets := Variant{
		PostgREST:  map[string]string{"app.settings.jwt_secret": "TOPSECRET-1", "jwt-secret": "TOPSECRET-2", "lab-future": "TOPSECRET-3", "db-uri": "postgres://u:TOPSECRET-4@h/db", "db-pool": "7"},
		Env:        map[string]string{"PGRST_APP_SETTINGS_token": "TOPSECRET-5", "PGRST_NO_SUCH_KEY": "TOPSECRET-6", "PGRST_DB_POOL": "8", "GHCRTS": "-N2"},
		PostgreSQL: map[string]string{"app.jwt_secret": "TOPSECRET-7", "work_mem": "64MB"},
	}
	v := secrets
	v.Name = "v"
	e := &Experiment{Target: Target{PGURI: "postgres://postgres:TOPSECRET-8@127.0.0.1/postgres"}, Variants: []Variant{v},
		Sweep: &Sweep{SweepAxis: SweepAxis{Key: "postgrest.db-pool", Values: []Scalar{"1", "2"}, Baseline: "1"}, Template: &secrets}}
	b, err := json.Marshal(e.Redacted())
	if err != nil {
		t.Fatal(err)
	}
	if i := strings.Index(string(b), "TOPSECRET"); i >= 0 {
		t.Errorf("Redacted shows a secret: %s", b[max(0, i-80):])
	}
	for _, shown := range []string{`"db-pool":"7"`, `"PGRST_DB_POOL":"8"`, `"GHCRTS":"-N2"`, `"work_mem":"64MB"`, `postgres://u:redacted@h/db`, `postgres://postgres:redacted@127.0.0.1/postgres`} {
		if !strings.Contains(string(b), shown) {
			t.Errorf("Redacted lacks %s: %s", shown, b)
		}
	}
	if e.Variants[0].PostgREST["app.settings.jwt_secret"] != "TOPSECRET-1" || e.Sweep.Template.Env["PGRST_APP_SETTINGS_token"] != "TOPSECRET-5" || !strings.Contains(e.Target.PGURI, "TOPSECRET-8") {
		t.Errorf("Redacted changed the experiment itself: %+v", e)
	}
}

// TestSweepRefusesHiddenValues: a sweep writes its values into variant
// names and descriptions, which are shown as they are, so a setting whose
// values the lab hides is not swept; a db-uri's "tcp" and "unix" are shown
// and may be.
func TestSweepRefusesHiddenValues(t *testing.T) {
	for key, values := range map[string][]Scalar{
		"postgrest.jwt-secret":              {"a", "b"},
		"postgrest.app.settings.jwt_secret": {"a", "b"},
		"env.PGRST_APP_SETTINGS_x":          {"a", "b"},
		"postgrest.db-uri":                  {"tcp", "postgres://u:pw@h/db"},
	} {
		e := &Experiment{Sweep: &Sweep{SweepAxis: SweepAxis{Key: key, Values: values, Baseline: values[0]}}}
		if errs := e.ValidateSweep(); len(errs) != 1 || !strings.Contains(errs[0].Error(), "may hold a secret") {
			t.Errorf("sweep over %s %v: %v, want one refusal saying its values may hold a secret", key, values, errs)
		}
	}
	for key, values := range map[string][]Scalar{"postgrest.db-uri": {"tcp", "unix"}, "postgrest.db-pool": {"1", "2"}, "env.PGRST_DB_POOL": {"1", "2"}} {
		e := &Experiment{Sweep: &Sweep{SweepAxis: SweepAxis{Key: key, Values: values, Baseline: values[0]}}}
		if errs := e.ValidateSweep(); len(errs) != 0 {
			t.Errorf("sweep over %s %v: %v, want none", key, values, errs)
		}
	}
}

// Scenarios given instead of the file's drop its targets file (lab ab A B
// GETSingle), and keep it when they name it.
func TestUseScenarios(t *testing.T) {
	e := &Experiment{Custom: []Scenario{{Name: "mine", Path: "/x"}}}
	e.UseTargets("/t/targets.http", false)
	e.UseScenarios([]string{"GETSingle", "mine"})
	if e.Targets != "" || len(e.Custom) != 1 || e.Custom[0].Name != "mine" || strings.Join(e.Scenarios, ",") != "GETSingle,mine" {
		t.Errorf("built-in scenarios: targets %q, custom %+v, scenarios %v", e.Targets, e.Custom, e.Scenarios)
	}
	e.UseTargets("/t/targets.http", true)
	e.UseScenarios([]string{TargetsScenario})
	if e.Targets != "/t/targets.http" || len(e.Custom) != 1 {
		t.Errorf("the targets scenario named: targets %q, custom %+v", e.Targets, e.Custom)
	}
}
