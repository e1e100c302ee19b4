package capability

import (
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab/postgrest"
)

// plant is a value no redaction may let through where the table hides it.
const plant = "TOPSECRET-7c1e"

// TestRedactOverTheTable: every key of PostgREST's table, as a key and as
// its PGRST_* variable, is shown exactly as its row says: a planted value
// stays only for a Visible key, a db-uri keeps its role and server but not
// its password, everything else is RedactedValue. app.settings.x and keys
// the table lacks are hidden, by key and by variable.
func TestRedactOverTheTable(t *testing.T) {
	uri := "postgres://authenticator:" + plant + "@127.0.0.1:5432/app"
	for _, k := range postgrest.Keys() {
		name := k.Name
		if name == postgrest.AppSettingsRow {
			name = "app.settings.jwt_secret"
		}
		val := plant
		if k.Shown == postgrest.PasswordsHidden {
			val = uri
		}
		for _, got := range []string{Redact(name, val), RedactEnv(postgrest.EnvVar(name), val), RedactSetting("postgrest", name, val)} {
			switch k.Shown {
			case postgrest.Visible:
				if got != val {
					t.Errorf("%s (visible): shown as %q, want %q", name, got, val)
				}
			case postgrest.PasswordsHidden:
				if strings.Contains(got, plant) || !strings.Contains(got, "@127.0.0.1:5432/app") || !strings.HasPrefix(got, "postgres://authenticator") {
					t.Errorf("%s (passwords hidden): shown as %q, want the URI without its password", name, got)
				}
			default:
				if got != RedactedValue {
					t.Errorf("%s (hidden): shown as %q, want %q", name, got, RedactedValue)
				}
			}
		}
	}
	for _, c := range []struct{ name, env string }{
		{"app.settings.jwt_secret", "PGRST_APP_SETTINGS_jwt_secret"},
		{"no-such-key", "PGRST_NO_SUCH_KEY"},
		{"jwt-secret", "PGRST_JWT_SECRET"},
	} {
		if got := Redact(c.name, plant); got != RedactedValue {
			t.Errorf("Redact(%s) = %q, want %q", c.name, got, RedactedValue)
		}
		if got := RedactEnv(c.env, plant); got != RedactedValue {
			t.Errorf("RedactEnv(%s) = %q, want %q", c.env, got, RedactedValue)
		}
	}
	// Env refuses any other variable; should one be shown, it is hidden.
	// GHCRTS holds runtime options only.
	if got := RedactEnv("LD_PRELOAD", plant); got != RedactedValue {
		t.Errorf("RedactEnv(LD_PRELOAD) = %q", got)
	}
	if got := RedactEnv("GHCRTS", "-N2 -A64m"); got != "-N2 -A64m" {
		t.Errorf("RedactEnv(GHCRTS) = %q", got)
	}
	// An unset value says nothing.
	if Redact("jwt-secret", "") != "" || RedactEnv("PGRST_APP_SETTINGS_x", "") != "" {
		t.Error("an empty value is not shown as empty")
	}
}

// TestRedactPostgreSQL: PostgreSQL's own settings and the contrib
// modules' tuning settings are shown; a custom setting (app.jwt_secret,
// as PostgREST's docs once set it) is hidden, in any case.
func TestRedactPostgreSQL(t *testing.T) {
	for name, shown := range map[string]bool{
		"work_mem": true, "synchronous_commit": true, "search_path": true,
		"auto_explain.log_min_duration": true, "pg_stat_statements.max": true, "Auto_Explain.log_analyze": true,
		"app.jwt_secret": false, "app.settings.jwt_secret": false, "myext.token": false, "App.Jwt_Secret": false,
	} {
		got := RedactPostgreSQL(name, plant)
		if (got == plant) != shown || (!shown && got != RedactedValue) {
			t.Errorf("RedactPostgreSQL(%s) = %q, want shown=%v", name, got, shown)
		}
		if RedactSetting("postgresql", name, plant) != got {
			t.Errorf("RedactSetting(postgresql, %s) differs from RedactPostgreSQL", name)
		}
	}
	if got := RedactSetting("dropin", "CPUAffinity", "0-1"); got != "0-1" {
		t.Errorf("RedactSetting(dropin, CPUAffinity) = %q", got)
	}
}

// TestRedactURL: a webhook's URL is shown by scheme and host only: the
// token in its path, its query or user information never.
func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://hooks.slack.com/services/T0/B0/xyzSECRET": "https://hooks.slack.com/<redacted>",
		"http://127.0.0.1:8080":                            "http://127.0.0.1:8080",
		"http://127.0.0.1:8080/":                           "http://127.0.0.1:8080",
		"https://user:SECRET@example.com":                  "https://example.com/<redacted>",
		"https://example.com?token=SECRET":                 "https://example.com/<redacted>",
		"ftp://example.com/SECRET":                         "<redacted>",
		"example.com/SECRET":                               "<redacted>",
		"https://exa mple.com/SECRET":                      "<redacted>",
	} {
		if got := RedactURL(in); got != want {
			t.Errorf("RedactURL(%q) = %q, want %q", in, got, want)
		}
	}
}
