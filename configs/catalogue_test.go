package configs

import (
	"errors"
	"strings"
	"testing"
)

func TestLookupCatalogue(t *testing.T) {
	for _, name := range []string{"db-uri", "db-pool", "db-pool-acquisition-timeout", "db-pool-max-lifetime", "db-pool-max-idletime",
		"db-pool-timeout", "db-prepared-statements", "db-plan-enabled", "db-channel-enabled", "log-level", "server-host", "server-port",
		"server-unix-socket", "server-unix-socket-mode", "admin-server-port", "jwt-cache-max-entries", "server-timing-enabled",
		"db-schema", "db-schemas", "db-anon-role", "jwt-secret", "jwt-aud", "db-extra-search-path", "db-max-rows", "db-tx-end",
		"db-pre-request", "openapi-mode", "server-cors-allowed-origins"} {
		k, ok := Lookup(name)
		if !ok || k.Since == "" || k.Type == "" {
			t.Errorf("%s: %+v %v", name, k, ok)
		}
	}
	if k, _ := Lookup("db-pool"); k.Default != "10" || k.Type != TypeInt || k.Reloadable {
		t.Errorf("db-pool = %+v", k)
	}
	if k, _ := Lookup("db-prepared-statements"); k.Default != "true" || !k.Reloadable || k.Since != "8.0" {
		t.Errorf("db-prepared-statements = %+v", k)
	}
	if k, ok := Lookup("app.settings.jwt_exp"); !ok || k.Name != "app.settings.jwt_exp" {
		t.Errorf("app.settings: %+v", k)
	}
	if _, ok := Lookup("app.settings."); ok {
		t.Error("bare app.settings. accepted")
	}
}

func TestValidateSetting(t *testing.T) {
	cases := []struct {
		key, raw     string
		allowUnknown bool
		want         string // "" = ok, else substrings separated by |
	}{
		{"db-pool", "10", false, ""},
		{"db-pool", "ten", false, `"db-pool"|not an integer`},
		{"db-pol", "10", false, `unknown|did you mean "db-pool"`},
		{"db_pool", "10", false, `did you mean "db-pool"`},
		{"log-levle", "crit", false, `did you mean "log-level"`},
		{"log-level", "verbose", false, `"log-level"|allowed: crit, error, warn, info, debug`},
		{"log-level", "crit", false, ""},
		{"db-prepared-statements", "maybe", false, "not a boolean|allowed: true, false, on, off"},
		{"db-prepared-statements", "off", false, ""},
		{"server-unix-socket-mode", "644", false, ""},
		{"server-unix-socket-mode", "999", false, "octal"},
		{"db-tx-end", "rollback", false, ""},
		{"openapi-mode", "none", false, "follow-privileges, ignore-privileges, disabled"},
		{"my-custom-key", "x", true, ""},
		{"my custom", "x", true, "invalid key"},
		{"zzzzzzzzzzzzzzzzzzzzzzzzzz", "x", false, "unknown"},
		{"app.settings.anything", "x", false, ""},
	}
	for _, c := range cases {
		err := ValidateSetting(c.key, c.raw, c.allowUnknown)
		if c.want == "" {
			if err != nil {
				t.Errorf("%s=%s: %v", c.key, c.raw, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s=%s: accepted", c.key, c.raw)
			continue
		}
		for _, w := range strings.Split(c.want, "|") {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s=%s: %q lacks %q", c.key, c.raw, err, w)
			}
		}
	}
	var ke *KeyError
	if err := ValidateSetting("db-pol", "1", false); !errors.As(err, &ke) || ke.Suggest != "db-pool" {
		t.Errorf("typed error: %#v", err)
	}
	if err := ValidateSetting("zzzzzzzzzzzzzzzzzzzzzzzzzz", "1", false); strings.Contains(err.Error(), "did you mean") {
		t.Errorf("far-fetched suggestion: %v", err)
	}
}

func TestParseValueTypes(t *testing.T) {
	if v, err := ParseValue("db-pool", "10"); err != nil || v.Kind() != KindNumber || v.Render() != "10" {
		t.Errorf("db-pool: %v %v", v, err)
	}
	if v, _ := ParseValue("db-prepared-statements", "off"); v.Kind() != KindBool || v.Render() != "false" {
		t.Errorf("bool: %v", v.Render())
	}
	if v, _ := ParseValue("log-level", "crit"); v.Render() != `"crit"` {
		t.Errorf("enum: %v", v.Render())
	}
	if v, _ := ParseValue("unknown-key", "a$b"); v.Render() != `"a$$b"` {
		t.Errorf("unknown: %v", v.Render())
	}
	if _, err := ParseValue("db-pool", "x"); err == nil {
		t.Error("db-pool=x accepted")
	}
}

func TestEnvForm(t *testing.T) {
	got := EnvForm(map[string]string{"db-pool": "4", "db-uri": "postgres://u@/db", "app.settings.jwt_exp": "60", "log-level": "crit"})
	want := map[string]string{"PGRST_DB_POOL": "4", "PGRST_DB_URI": "postgres://u@/db", "PGRST_APP_SETTINGS_jwt_exp": "60", "PGRST_LOG_LEVEL": "crit"}
	if len(got) != len(want) {
		t.Fatalf("%v", got)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q want %q", k, got[k], v)
		}
	}
	// Round trip: Load reads the env form back to the same settings.
	var environ []string
	for k, v := range got {
		environ = append(environ, k+"="+v)
	}
	s, err := Load("", environ)
	if err != nil {
		t.Fatal(err)
	}
	if s["db-pool"] != "4" || s["app.settings.jwt_exp"] != "60" || s["db-uri"] != "postgres://u@/db" {
		t.Errorf("round trip: %v", s)
	}
}

// TestCatalogueConsistent: every entry is complete, its default passes its
// own type check, enums list values, aliases point at real keys.
func TestCatalogueConsistent(t *testing.T) {
	all := Catalogue()
	if len(all) < 45 {
		t.Fatalf("only %d keys", len(all))
	}
	for i, k := range all {
		if i > 0 && all[i-1].Name >= k.Name {
			t.Errorf("not sorted/unique at %s", k.Name)
		}
		if k.Type == "" || k.Since == "" || k.Doc == "" {
			t.Errorf("%s incomplete: %+v", k.Name, k)
		}
		if k.Default != "" && !strings.HasSuffix(k.Name, "*") {
			if err := checkType(k, k.Default); err != nil {
				t.Errorf("%s default: %v", k.Name, err)
			}
		}
		if (k.Type == TypeEnum) != (len(k.Values) > 0) {
			t.Errorf("%s: enum values %v for type %s", k.Name, k.Values, k.Type)
		}
		if k.AliasOf != "" {
			if a, ok := Lookup(k.AliasOf); !ok || a.Type != k.Type {
				t.Errorf("%s: alias of %s (%+v)", k.Name, k.AliasOf, a)
			}
		}
		if ev := k.EnvName(); !strings.HasPrefix(ev, "PGRST_") || strings.ContainsAny(ev, "-") {
			t.Errorf("%s: env %s", k.Name, ev)
		}
	}
}

func TestValueConstructors(t *testing.T) {
	v := List(Int(1), String(`a"$`), Bool(false), Template("$(X)"))
	if v.Render() != `[1, "a\"$$", false, "$(X)"]` || v.String() != `1,a"$,false,$(X)` || len(v.Items()) != 4 {
		t.Fatalf("%s / %s", v.Render(), v.String())
	}
	f, err := Parse("l.conf", []byte("l = "+v.Render()+"\nimport \"x.conf\"\n#; import \"y.conf\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := f.Get("l"); !got.Equal(v) || got.Kind().String() != "list" {
		t.Fatalf("list round trip: %s", got.Render())
	}
	if imps := f.Imports(); len(imps) != 1 || imps[0] != "x.conf" {
		t.Fatalf("imports = %v", imps)
	}
}

func TestKeyIn(t *testing.T) {
	k := Key{Since: "12.0", Until: "14.0"}
	for v, want := range map[string]bool{"11.2.2": false, "12": true, "12.0.0": true, "13.0.8": true, "14.0": false, "14.0.1": false} {
		if got := k.In(v); got != want {
			t.Errorf("Since 12.0 Until 14.0: In(%s) = %v", v, got)
		}
	}
	if k, _ := Lookup("log-query"); k.Type != TypeEnum || k.Default != "disabled" {
		t.Errorf("log-query = %+v (PostgREST 13 refuses a boolean)", k)
	}
}
