package experiments

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/record"
)

// The targets key becomes the scenario "targets", its path relative to the
// experiment file; jwt_secret is checked and never serialised.
func TestParseTargetsAndJWTSecret(t *testing.T) {
	src := `name = "mix"
title = "t"
scenarios = ["GETSingle"]
targets = "load/targets.http"
jwt_secret = "reallyreallyreallyreallyverysafe"

[[variant]]
name = "a"
postgrest = { jwt-secret = "reallyreallyreallyreallyverysafe", db-tx-end = "commit-allow-override" }
`
	e, err := Parse("dir/sub/x.toml", []byte(src), fakeKeysAllowing)
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join("dir/sub", "load/targets.http")
	if !slices.Equal(e.Scenarios, []string{"GETSingle", lab.TargetsScenario}) || len(e.Custom) != 1 || e.Custom[0].Targets != want || e.Targets != want {
		t.Errorf("scenarios %v, custom %+v, targets %q", e.Scenarios, e.Custom, e.Targets)
	}
	b, _ := json.Marshal(record.FromExperiment(e.Redacted())) // as run.json holds it
	if strings.Contains(string(b), "really") {
		t.Errorf("the JWT secret reached JSON: %s", b)
	}
	if !strings.Contains(string(b), `"jwt-secret":"\u003credacted\u003e"`) {
		t.Errorf("jwt-secret not shown as redacted: %s", b)
	}
	// --targets: the file replaces the scenarios.
	e.UseTargets("/abs/t.http", true)
	if !slices.Equal(e.Scenarios, []string{lab.TargetsScenario}) || len(e.Custom) != 1 || e.Custom[0].Targets != "/abs/t.http" || len(e.Validate()) != 0 {
		t.Errorf("after --targets: %v %+v %v", e.Scenarios, e.Custom, e.Validate())
	}

	_, err = Parse("x.toml", []byte(strings.Replace(src, "reallyreallyreallyreallyverysafe\"\n", "short\"\n", 1)), fakeKeysAllowing)
	if err == nil || !strings.Contains(err.Error(), "x.toml:5: jwt_secret: must be at least 32 characters") {
		t.Errorf("short secret: %v", err)
	}
}
