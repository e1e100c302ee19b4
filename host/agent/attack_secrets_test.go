package agent

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/configs"
	"github.com/pgrst-lab/pgrst-lab/host/reconcile"
	"github.com/pgrst-lab/pgrst-lab/lab/capability"
)

// Issue 41, item 2: secrets are hidden by default. A value the lab has not
// classified as no secret never reaches a reply or the agent's log. The
// case plants a secret in every place a token holder can make the agent
// show: the target's original config (app.settings.jwt_secret, as
// PostgREST's tutorial keeps it; jwt-secret, the rig's attackSecret; a
// key the lab's table lacks; the db-uri's password), each of which a
// variant's change shows as its from; and new secrets in every value a
// variant sets (PostgREST keys and PGRST_* variables), its to. A custom
// PostgreSQL setting (app.jwt_secret, as PostgREST's docs once kept the
// secret) cannot be planted: pg_settings does not list one, so the lab
// refuses it as an unknown setting (capability.RedactPostgreSQL would
// hide it; its unit test holds that).

// Secrets in the target's original config.
const (
	secretAppSettings = "TOPSECRET-app-settings-original-5b1d"
	secretUnknownKey  = "TOPSECRET-unknown-key-original-93fa"
	secretPassword    = "TOPSECRET-password-original-c27e"
)

// secretNew is the secret a variant sets; where says where.
func secretNew(where string) string {
	return "TOPSECRET-variant-" + where + "-0123456789abcdef0123456789abcdef"
}

func attackSecretsRedactedByDefault(t *testing.T, r *rig) {
	r.withOriginal(t, func(t *testing.T, f *configs.File, lcfg *reconcile.Config) {
		for k, v := range map[string]string{"app.settings.jwt_secret": secretAppSettings, "lab-future-secret": secretUnknownKey} {
			if err := f.Set(k, configs.String(v)); err != nil {
				t.Fatal(err)
			}
		}
		setPassword(t, f, secretPassword)
		lcfg.AllowUnknownKeys = true
	}, func(t *testing.T) {
		t.Run("app-settings-from", func(t *testing.T) { appSettingsFromRedacted(t, r) })
		t.Run("every-place", func(t *testing.T) { secretsRedactedEverywhere(t, r) })
	})
}

// secretsPolicy allows every place the case plants a secret.
func secretsPolicy() Policy {
	pol := DefaultPolicy()
	pol.PostgRESTKeys = []string{"app.settings.*", "jwt-secret", "db-uri", "db-pool", "lab-future-secret"}
	pol.Env = append(pol.Env, "PGRST_APP_SETTINGS_token", "PGRST_JWT_SECRET")
	pol.AllowUnknownKeys = true
	return pol
}

// changesOf decodes an apply reply's changes.
func changesOf(t *testing.T, body string) []ChangeV1 {
	t.Helper()
	var reply AppliedV1
	if err := json.Unmarshal([]byte(body), &reply); err != nil {
		t.Fatalf("apply reply %s: %v", body, err)
	}
	return reply.Changes
}

// findChange is the change of key in where, or fails.
func findChange(t *testing.T, cs []ChangeV1, where, key string) ChangeV1 {
	t.Helper()
	for _, c := range cs {
		if c.Where == where && c.Key == key {
			return c
		}
	}
	t.Fatalf("no change of %s %s among %+v", where, key, cs)
	return ChangeV1{}
}

// The finding's repro: the target's config has app.settings.jwt_secret,
// a token holder sets it to "x", and the reply's from showed the original.
func appSettingsFromRedacted(t *testing.T, r *rig) {
	a := r.agent(t, secretsPolicy(), 0)
	a.open()
	status, body := a.apply(`{"name":"x","postgrest":{"app.settings.jwt_secret":"x"}}`)
	if status != http.StatusOK {
		t.Fatalf("apply app.settings.jwt_secret = x: %d %s", status, body)
	}
	if strings.Contains(body, secretAppSettings) {
		t.Errorf("the reply shows the original app.settings.jwt_secret %q: %s", secretAppSettings, body)
	}
	c := findChange(t, changesOf(t, body), "postgrest", "app.settings.jwt_secret")
	if c.From != capability.RedactedValue || c.To != capability.RedactedValue {
		t.Errorf("app.settings.jwt_secret: from %q to %q, want both %q", c.From, c.To, capability.RedactedValue)
	}
	if status, body := a.close(); status != http.StatusNoContent {
		t.Fatalf("close: %d %s", status, body)
	}
}

func secretsRedactedEverywhere(t *testing.T, r *rig) {
	a := r.agent(t, secretsPolicy(), 0)
	a.open()
	uri := fmt.Sprintf("postgres://authenticator:%s@127.0.0.1:%d/%s", secretNew("password"), r.st.PGPort, r.st.Database)
	variants := []struct {
		name    string
		variant map[string]any
		changed [][2]string // where, key: listed, hidden
	}{
		{"keys", map[string]any{
			"postgrest": map[string]string{"app.settings.jwt_secret": secretNew("app-settings"), "jwt-secret": secretNew("jwt-secret"),
				"lab-future-secret": secretNew("unknown-key"), "db-uri": "unix"},
		}, [][2]string{{"postgrest", "app.settings.jwt_secret"}, {"postgrest", "jwt-secret"}, {"postgrest", "lab-future-secret"}}},
		{"env", map[string]any{
			"env": map[string]string{"PGRST_APP_SETTINGS_token": secretNew("env-app-settings"), "PGRST_JWT_SECRET": secretNew("env-jwt-secret")},
		}, [][2]string{{"env", "PGRST_APP_SETTINGS_token"}, {"env", "PGRST_JWT_SECRET"}}},
		{"full-db-uri", map[string]any{"postgrest": map[string]string{"db-uri": uri}}, nil},
	}
	planted := []string{attackSecret, secretAppSettings, secretUnknownKey, secretPassword, "TOPSECRET"}
	var replies []string
	for _, v := range variants {
		v.variant["name"] = v.name
		req, _ := json.Marshal(v.variant)
		status, body := a.apply(string(req))
		if status != http.StatusOK {
			t.Fatalf("apply %s: %d %s", v.name, status, body)
		}
		replies = append(replies, body)
		cs := changesOf(t, body)
		for _, wk := range v.changed {
			if c := findChange(t, cs, wk[0], wk[1]); c.To != capability.RedactedValue {
				t.Errorf("%s %s %s: to %q, want %q", v.name, wk[0], wk[1], c.To, capability.RedactedValue)
			}
		}
		t.Logf("%s: %s", v.name, body)
	}
	status, body := a.close()
	if status != http.StatusNoContent {
		t.Fatalf("close: %d %s", status, body)
	}
	replies = append(replies, body)
	for what, text := range map[string]string{"a reply": strings.Join(replies, "\n"), "the agent's log": a.logs.text()} {
		for _, s := range planted {
			if strings.Contains(text, s) {
				t.Errorf("%s shows the planted secret %q:\n%s", what, s, text)
			}
		}
	}
}
