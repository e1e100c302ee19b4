package capability

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// Issue 41, item 6d: free text that echoes a secret in a form the
// patterns of RedactText miss is cleaned by Secrets, which knows the
// values: each case leaks through RedactText alone (so the case is one
// the patterns miss) and not through Secrets.
func TestSecretsRedactWhatThePatternsMiss(t *testing.T) {
	const jwt = "reallyreallyreallyreallylongjwtsecret32"
	for _, c := range []struct {
		name, key, val string
		text           string // what a program printed
		leak           []string
	}{
		// PostgREST or a wrapper echoing the JWT secret; a conflict quoting
		// the config line (%q).
		{"jwt-echo", "jwt-secret", jwt, "config: jwt-secret = " + jwt + " is not base64", []string{jwt}},
		{"jwt-config-line", "jwt-secret", `a"quoted"secretsecretsecretsecret!`,
			fmt.Sprintf("line 3: the lab wrote %q", `jwt-secret = "a"quoted"secretsecretsecretsecret!"`), []string{"secretsecret"}},
		// A URI whose password holds '@' and a space: the pattern stops at
		// the first '@'; libpq's own message quotes the password.
		{"uri-password-with-at", "db-uri", "postgres://authenticator:p@ss w0rd@127.0.0.1:5432/chinook",
			`connect postgres://authenticator:p@ss w0rd@127.0.0.1:5432/chinook: password authentication failed ("p@ss w0rd")`,
			[]string{"ss w0rd"}},
		// key=value with an escaped quote in a quoted password, echoed whole,
		// and one an unescaped space cuts, where libpq quotes the rest.
		{"kv-escaped-quote", "db-uri", `host=/run/pg dbname=x password='it\'s a secret'`,
			"the password it's a secret was refused", []string{"a secret"}},
		{"kv-unescaped-space", "db-uri", "host=/run/pg dbname=x password=letmein please",
			`invalid connection option: missing "=" after "please" in connection info string; password=letmein`, []string{"please", "letmein"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if plain := RedactText(c.text); !containsAnyOf(plain, c.leak) {
				t.Fatalf("RedactText alone already hides it: %s", plain)
			}
			var s Secrets
			s.Add(c.key, c.val)
			got := s.RedactText(c.text)
			if containsAnyOf(got, c.leak) {
				t.Errorf("Secrets left a secret in:\n%s", got)
			}
			err := fmt.Errorf("apply: %w", &Error{Code: Never, Where: "x", Msg: c.text})
			w := s.Wrap(err)
			if containsAnyOf(w.Error(), c.leak) || !errors.Is(w, err) {
				t.Errorf("Wrap: %v (errors.Is the original: %v)", w, errors.Is(w, err))
			}
			if ce, ok := errors.AsType[*Error](w); !ok || ce.Code != Never {
				t.Errorf("Wrap hides the error's type: %v", w)
			}
		})
	}
	// Not a secret, too short, or nothing known: the text is the patterns'.
	var s Secrets
	s.Add("db-pool", "10000")
	s.Add("jwt-secret", "abc")
	s.AddEnv("PGRST_DB_POOL", "20000")
	if got := s.RedactText("pool 10000 20000 abc"); got != "pool 10000 20000 abc" {
		t.Errorf("hid a value that is no secret or too short: %s", got)
	}
	var none *Secrets
	if got := none.RedactText("postgres://u:pw@h/db"); got != "postgres://u:redacted@h/db" {
		t.Errorf("nil Secrets: %s", got)
	}
	if err := errors.New("plain"); s.Wrap(err) != err || s.Wrap(nil) != nil {
		t.Errorf("Wrap changed an error with nothing to hide")
	}
	s.AddEnv("PGRST_JWT_SECRET", jwt)
	if got := s.RedactText("echo " + jwt); strings.Contains(got, jwt) {
		t.Errorf("PGRST_JWT_SECRET not hidden: %s", got)
	}
}

func containsAnyOf(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
