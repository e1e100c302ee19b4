package capability

import (
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/internal/connstr"
	"github.com/pgrst-lab/pgrst-lab/lab/postgrest"
)

// RedactSetting is the redaction of one setting of a variant's table
// (kind as a sweep's key names it): postgrest (Redact), postgresql
// (RedactPostgreSQL) and env (RedactEnv). Drop-in and rts values are shown
// as they are: nothing but their checked forms (CPU lists, sizes, runtime
// options) passes DropIn and Args.
func RedactSetting(kind, name, val string) string {
	switch kind {
	case "postgrest":
		return Redact(name, val)
	case "postgresql":
		return RedactPostgreSQL(name, val)
	case "env":
		return RedactEnv(name, val)
	}
	return val
}

// RedactedValue is what a hidden value is shown as.
const RedactedValue = "<redacted>"

// Redact returns a PostgREST key's value fit to show in a reply, a log,
// run.json, a report or the store, as the key's row in PostgREST's table
// says (postgrest.ShownOf): a Visible key's value as it is, a db-uri with
// its passwords replaced, and every other value, a key the table lacks
// included, as RedactedValue. An empty value (the key is unset) is shown.
func Redact(key, val string) string {
	if val == "" {
		return val
	}
	switch postgrest.ShownOf(key) {
	case postgrest.Visible:
		return val
	case postgrest.PasswordsHidden:
		return RedactURI(val)
	}
	return RedactedValue
}

// RedactURI hides the passwords of a postgres:// URI or a key=value
// connection string; "tcp"/"unix" are kept. It fails closed: a string it
// cannot read is hidden, not shown (connstr.Redact).
func RedactURI(s string) string {
	if LabDBURI(s) {
		return s
	}
	return connstr.Redact(s)
}

var (
	uriPasswordRe = regexp.MustCompile(`(postgres(?:ql)?://[^:/@\s"']*:)[^@\s"']*@`)
	kvPasswordRe  = regexp.MustCompile(`(?i)(password\s*=\s*)('(?:[^'\\]|\\.)*'?|"[^"]*"|[^\s&"']+)`)
)

// RedactText hides passwords in free text (an error message, a log tail):
// the password of postgres:// URIs and password=... parameters.
func RedactText(s string) string {
	s = uriPasswordRe.ReplaceAllString(s, "${1}redacted@")
	return kvPasswordRe.ReplaceAllString(s, "${1}redacted")
}

// RedactEnv is Redact for an environment variable: a PGRST_* variable's
// value is shown as its key's would be (PGRST_APP_SETTINGS_x and the
// variable of a key the table lacks are hidden), GHCRTS's as it is (runtime
// options, nothing else passes Env), any other variable's is hidden.
func RedactEnv(name, val string) string {
	if name == "GHCRTS" {
		return val
	}
	if key, ok := postgrest.EnvKey(name); ok {
		return Redact(key, val)
	}
	if val == "" {
		return val
	}
	return RedactedValue
}

// pgShownExtensions are the extensions whose settings' values are shown:
// contrib modules whose settings are numbers, booleans and words.
var pgShownExtensions = []string{"auto_explain", "pg_stat_statements"}

// RedactPostgreSQL returns a PostgreSQL setting's value fit to show (a
// reply, run.json, a report, the store). PostgreSQL's own settings are
// shown: the ones that hold a credential or name a file with one
// (primary_conninfo, ssl_passphrase_command, the key files) are refused by
// their name (pgNever), so no variant sets them and no change lists them.
// A dotted setting that is not one of pgShownExtensions' is hidden: a
// custom setting is free text for SQL, where secrets live (PostgREST's
// docs kept the JWT secret in app.jwt_secret, set with ALTER DATABASE),
// and its original is read from the server.
func RedactPostgreSQL(name, val string) string {
	ext, _, dotted := strings.Cut(strings.ToLower(name), ".")
	if val == "" || !dotted || slices.Contains(pgShownExtensions, ext) {
		return val
	}
	return RedactedValue
}

// RedactURL is an HTTP URL fit to show: its scheme and host, with its
// user information, path, query and fragment (where a webhook's secret
// token is) hidden; a string that is no such URL is hidden whole.
// "https://hooks.slack.com/services/T0/B0/xyz" is shown as
// "https://hooks.slack.com/<redacted>".
func RedactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return RedactedValue
	}
	out := u.Scheme + "://" + u.Host
	if u.User != nil || u.Opaque != "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		out += "/" + RedactedValue
	}
	return out
}
