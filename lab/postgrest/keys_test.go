package postgrest

import (
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

// TestCatalogueConsistent: every entry is complete, enums list values,
// aliases point at real keys (the defaults pass their type check:
// configs.TestCatalogueDefaultsValid).
func TestCatalogueConsistent(t *testing.T) {
	all := Keys()
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

func TestKeyIn(t *testing.T) {
	k := Key{Since: "12.0", Removed: "14.0"}
	for v, want := range map[string]bool{"11.2.2": false, "12": true, "12.0.0": true, "13.0.8": true, "14.0": false, "14.0.1": false} {
		if got := k.In(v); got != want {
			t.Errorf("Since 12.0 Removed 14.0: In(%s) = %v", v, got)
		}
	}
	if k, _ := Lookup("log-query"); k.Type != TypeEnum || k.Default != "disabled" {
		t.Errorf("log-query = %+v (PostgREST 13 refuses a boolean)", k)
	}
}

// TestEveryKeyClassed: every row sets its class (the zero Class is no
// class, so a row that forgets it fails here instead of becoming Tune);
// a class other than Tune says why and Tune says nothing; an old alias has
// the class, Shown and reloadability of the key it stands for; a Removed
// version follows Since.
func TestEveryKeyClassed(t *testing.T) {
	for _, k := range Keys() {
		switch k.Class {
		case Tune:
			if k.Why != "" {
				t.Errorf("%s: Tune with a reason %q", k.Name, k.Why)
			}
		case Privileged, Fixed:
			if k.Why == "" {
				t.Errorf("%s: %v without a reason", k.Name, k.Class)
			}
		default:
			t.Errorf("%s: class %v; every row sets Tune, Privileged or Fixed", k.Name, k.Class)
		}
		if k.Removed != "" && compareVersions(k.Since, k.Removed) >= 0 {
			t.Errorf("%s: removed in %s, not after its first version %s", k.Name, k.Removed, k.Since)
		}
		if k.DefaultOf != "" {
			if k.Default != "" {
				t.Errorf("%s: both a default %q and DefaultOf %s", k.Name, k.Default, k.DefaultOf)
			}
			if _, ok := Lookup(k.DefaultOf); !ok {
				t.Errorf("%s: DefaultOf %s is not a key", k.Name, k.DefaultOf)
			}
		}
		if k.AliasOf == "" {
			continue
		}
		a, _ := Lookup(k.AliasOf)
		if a.AliasOf != "" {
			t.Errorf("%s: alias of an alias (%s)", k.Name, k.AliasOf)
		}
		if a.Class != k.Class || a.Shown != k.Shown {
			t.Errorf("%s: class %v shown %v, but %s (which it stands for) is %v shown %v", k.Name, k.Class, k.Shown, a.Name, a.Class, a.Shown)
		}
		if a.Class != Tune && a.Why != k.Why {
			t.Errorf("%s: reason %q, %s's is %q", k.Name, k.Why, a.Name, a.Why)
		}
	}
}

func TestClassOf(t *testing.T) {
	for key, want := range map[string]Class{
		"db-pool": Tune, "app.settings.jwt_exp": Privileged, "server-port": Fixed, "server-unix-socket": Fixed,
		"db-uri": Privileged, "jwt-secret": Privileged, "role-claim-key": Privileged, "no-such-key": Unlisted,
	} {
		if got, why := ClassOf(key); got != want || (got != Tune) != (why != "") {
			t.Errorf("ClassOf(%s) = %v %q, want %v", key, got, why, want)
		}
	}
}

func TestEnvVarRoundTrip(t *testing.T) {
	for _, key := range []string{"db-pool", "server-timing-enabled", "app.settings.jwt_exp"} {
		if k, ok := EnvKey(EnvVar(key)); !ok || k != key {
			t.Errorf("%s -> %s -> %s %v", key, EnvVar(key), k, ok)
		}
	}
	if _, ok := EnvKey("PATH"); ok {
		t.Error("PATH is a PostgREST key")
	}
}
