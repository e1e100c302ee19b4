package configs

import (
	"errors"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab/postgrest"
)

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

// TestCatalogueDefaultsValid: every default in PostgREST's table passes the
// type check of its own key.
func TestCatalogueDefaultsValid(t *testing.T) {
	for _, k := range postgrest.Keys() {
		if k.Default != "" && !strings.HasSuffix(k.Name, "*") {
			if err := checkType(k, k.Default); err != nil {
				t.Errorf("%s default: %v", k.Name, err)
			}
		}
	}
}
