package capability

import (
	"regexp"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/internal/connstr"
	"github.com/pgrst-lab/pgrst-lab/lab/postgrest"
)

// Class is what a PostgREST key can do, which decides who may change it;
// the class of every key is a column of PostgREST's table (lab/postgrest).
type Class = postgrest.Class

// The classes of PostgREST keys (see lab/postgrest).
const (
	Tune       = postgrest.Tune
	Privileged = postgrest.Privileged
	Fixed      = postgrest.Fixed
	Unlisted   = postgrest.Unlisted
)

// LabDBURI are the db-uri values the lab derives from the target's own
// db-uri (same role and database, another transport).
func LabDBURI(v string) bool { return v == "tcp" || v == "unix" }

// PostgRESTKey checks a PostgREST key and its value for a variant and
// returns the key's class from PostgREST's table (lab/postgrest). It
// refuses Fixed keys, @file values (PostgREST reads the file), and
// malformed text. Whether a Privileged key is allowed is the caller's
// policy; so is an Unlisted one (a key the table lacks): it passes only
// where unknown keys are allowed (allow_unknown_keys), which the catalogue
// check (configs.ValidateSetting) decides, so this function does not refuse
// it, but it is never reported as Tune.
func PostgRESTKey(key, val string) (Class, error) {
	where := "postgrest." + key
	if err := Text("postgrest key", key); err != nil {
		return Fixed, err
	}
	if err := Text(where, val); err != nil {
		return Fixed, err
	}
	class, why := postgrest.ClassOf(key)
	if class == Fixed {
		return Fixed, fail(Never, where, "%s; it is fixed by the agent's host, not by variants", why)
	}
	if strings.HasPrefix(val, "@") {
		return Fixed, fail(Never, where, "@file values make the target read a file on the agent's host and are refused")
	}
	if key == "db-uri" && LabDBURI(val) {
		return Tune, nil
	}
	return class, nil
}

// PrivilegeReason says why a Privileged key needs the agent's explicit permission.
func PrivilegeReason(key string) string {
	_, why := postgrest.ClassOf(key)
	return why
}

// Secret reports whether the PostgREST key's value is a secret.
func Secret(key string) bool { return postgrest.Secret(key) }

// Redact returns val fit to show in a reply or a log: a secret key's value
// as "<redacted>", a db-uri with its password replaced. Other values are
// returned unchanged.
func Redact(key, val string) string {
	if val == "" || !postgrest.Secret(key) {
		return val
	}
	if key == "db-uri" {
		return RedactURI(val)
	}
	return "<redacted>"
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
// the password of postgres:// URIs and password=... parameters. Patterns
// see only those shapes: where the secret values are known, use
// Secrets.RedactText, which hides each by its text first.
func RedactText(s string) string {
	s = uriPasswordRe.ReplaceAllString(s, "${1}redacted@")
	return kvPasswordRe.ReplaceAllString(s, "${1}redacted")
}
