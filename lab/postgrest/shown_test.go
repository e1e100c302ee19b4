package postgrest

import "testing"

// shownStrings are the string and list keys whose values are shown, each
// with why no secret is in it. A string or list key that is Visible and
// not here fails TestShownOverTheTable: its reason is written here first.
var shownStrings = map[string]string{
	"admin-server-host":           "an address",
	"admin-server-unix-socket":    "a socket path",
	"db-anon-role":                "a role's name",
	"db-channel":                  "a LISTEN channel's name",
	"db-extra-search-path":        "schemas' names",
	"db-hoisted-tx-settings":      "settings' names",
	"db-pre-config":               "a function's name; what it reads stays in the database",
	"db-pre-request":              "a function's name; what it reads stays in the database",
	"db-root-spec":                "a function's name",
	"db-schema":                   "schemas' names",
	"db-schemas":                  "schemas' names",
	"jwt-aud":                     "an audience, in every token PostgREST accepts",
	"jwt-role-claim-key":          "a JSPath",
	"openapi-server-proxy-uri":    "a URI PostgREST publishes in its OpenAPI output",
	"pre-request":                 "a function's name",
	"role-claim-key":              "a JSPath",
	"root-spec":                   "a function's name",
	"server-cors-allowed-origins": "origins PostgREST sends in its CORS headers",
	"server-host":                 "an address",
	"server-trace-header":         "a header's name",
	"server-unix-socket":          "a socket path",
}

// TestShownOverTheTable is the redaction rule over the whole table: a
// value is shown only where a row says so, and every row's decision is one
// this test names. Numbers, booleans, enums and modes are shown (PostgREST
// takes nothing else there); a string or list key is shown only with a
// reason in shownStrings; jwt-secret, app.settings.* and keys the table
// lacks are hidden; db-uri hides only its passwords.
func TestShownOverTheTable(t *testing.T) {
	hidden := map[string]bool{"jwt-secret": true, "app.settings.*": true}
	for _, k := range Keys() {
		var want Shown
		switch {
		case k.Name == "db-uri":
			want = PasswordsHidden
		case hidden[k.Name]:
			want = Hidden
		case k.Type == TypeInt || k.Type == TypeBool || k.Type == TypeEnum || k.Type == TypeOctal:
			want = Visible
		case shownStrings[k.Name] != "":
			want = Visible
		default:
			t.Errorf("%s (%s) is not decided here: add it to shownStrings with why its value holds no secret, or to hidden", k.Name, k.Type)
			continue
		}
		if k.Shown != want {
			t.Errorf("%s (%s): shown %v, want %v", k.Name, k.Type, k.Shown, want)
		}
		if got := ShownOf(k.Name); got != k.Shown {
			t.Errorf("ShownOf(%s) = %v, the row says %v", k.Name, got, k.Shown)
		}
	}
	for name := range shownStrings {
		if k, ok := Lookup(name); !ok || k.Type != TypeString && k.Type != TypeList {
			t.Errorf("shownStrings names %s, not a string or list key of the table (%+v)", name, k)
		}
	}
	for _, key := range []string{"app.settings.jwt_secret", "app.settings.x", "no-such-key", "db-pool-x", "jwt-secret-file", ""} {
		if got := ShownOf(key); got != Hidden {
			t.Errorf("ShownOf(%q) = %v, want hidden", key, got)
		}
	}
}

// TestCovers: an allow-list entry names a key exactly, or is the
// app.settings.* row and names every app.settings.x.
func TestCovers(t *testing.T) {
	for _, c := range []struct {
		entry, key string
		want       bool
	}{
		{"db-pool", "db-pool", true},
		{"app.settings.jwt_secret", "app.settings.jwt_secret", true},
		{"app.settings.jwt_secret", "app.settings.other", false},
		{"app.settings.*", "app.settings.jwt_secret", true},
		{"app.settings.*", "app.settings.", false},
		{"app.settings.*", "jwt-secret", false},
		{"db-*", "db-pool", false},
		{"*", "db-pool", false},
	} {
		if got := Covers(c.entry, c.key); got != c.want {
			t.Errorf("Covers(%q, %q) = %v, want %v", c.entry, c.key, got, c.want)
		}
	}
}
