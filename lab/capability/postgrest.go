package capability

import (
	"regexp"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/internal/connstr"
)

// Class is what a PostgREST key can do, which decides who may change it.
type Class int

const (
	// Tune keys change how PostgREST performs; any agent allows them
	// unless its config narrows the list.
	Tune Class = iota
	// Privileged keys change who PostgREST is in the database or what it
	// exposes (roles, schemas, functions run per request, the JWT secret,
	// a foreign db-uri). An agent allows them only when its config names
	// them.
	Privileged
	// Fixed keys name an address, a port or a path: they belong to the
	// host, never to a variant.
	Fixed
)

func (c Class) String() string {
	switch c {
	case Privileged:
		return "privileged"
	case Fixed:
		return "fixed"
	}
	return "tune"
}

// postgrestClass lists every key that is not Tune, with the reason.
var postgrestClass = map[string]struct {
	class Class
	why   string
}{
	"server-host":                   {Fixed, "names the address the target listens on"},
	"server-port":                   {Fixed, "names the port the target listens on"},
	"server-unix-socket":            {Fixed, "names a socket path on the agent's host"},
	"server-unix-socket-mode":       {Fixed, "sets the mode of a socket path on the agent's host"},
	"admin-server-host":             {Fixed, "names the address of the admin server"},
	"admin-server-port":             {Fixed, "names the port of the admin server"},
	"admin-server-unix-socket":      {Fixed, "names a socket path on the agent's host"},
	"admin-server-unix-socket-mode": {Fixed, "sets the mode of a socket path on the agent's host"},
	"db-uri":                        {Privileged, "a full connection URI chooses the database role and server (\"tcp\" and \"unix\" keep the target's own)"},
	"db-anon-role":                  {Privileged, "chooses the database role of anonymous requests"},
	"db-schemas":                    {Privileged, "chooses the schemas exposed over HTTP"},
	"db-schema":                     {Privileged, "chooses the schemas exposed over HTTP"},
	"db-extra-search-path":          {Privileged, "changes name resolution of every request"},
	"db-pre-request":                {Privileged, "runs a function before every request"},
	"pre-request":                   {Privileged, "runs a function before every request"},
	"db-pre-config":                 {Privileged, "runs a function when the config loads"},
	"db-root-spec":                  {Privileged, "runs a function for the root endpoint"},
	"root-spec":                     {Privileged, "runs a function for the root endpoint"},
	"jwt-secret":                    {Privileged, "whoever knows it can sign tokens for any role"},
	"jwt-secret-is-base64":          {Privileged, "changes how the JWT secret is read"},
	"secret-is-base64":              {Privileged, "changes how the JWT secret is read"},
	"jwt-role-claim-key":            {Privileged, "chooses which claim names the database role"},
	"role-claim-key":                {Privileged, "chooses which claim names the database role"},
	"jwt-aud":                       {Privileged, "changes which tokens are accepted"},
}

// secretKeys are PostgREST keys whose values are never shown in full.
var secretKeys = map[string]bool{"jwt-secret": true, "db-uri": true}

// LabDBURI are the db-uri values the lab derives from the target's own
// db-uri (same role and database, another transport).
func LabDBURI(v string) bool { return v == "tcp" || v == "unix" }

// PostgRESTKey checks a PostgREST key and its value for a variant and
// returns the key's class. It refuses Fixed keys, @file values (PostgREST
// reads the file), and malformed text. Whether a Privileged key is allowed
// is the caller's policy.
func PostgRESTKey(key, val string) (Class, error) {
	where := "postgrest." + key
	if err := Text("postgrest key", key); err != nil {
		return Fixed, err
	}
	if err := Text(where, val); err != nil {
		return Fixed, err
	}
	c, ok := postgrestClass[key]
	if ok && c.class == Fixed {
		return Fixed, fail(Never, where, "%s; it is fixed by the agent's host, not by variants", c.why)
	}
	if strings.HasPrefix(val, "@") {
		return Fixed, fail(Never, where, "@file values make the target read a file on the agent's host and are refused")
	}
	if key == "db-uri" && LabDBURI(val) {
		return Tune, nil
	}
	if ok {
		return c.class, nil
	}
	return Tune, nil
}

// PrivilegeReason says why a Privileged key needs the agent's explicit permission.
func PrivilegeReason(key string) string { return postgrestClass[key].why }

// Secret reports whether the PostgREST key's value is a secret.
func Secret(key string) bool { return secretKeys[key] }

// Redact returns val fit to show in a reply or a log: a secret key's value
// as "<redacted>", a db-uri with its password replaced. Other values are
// returned unchanged.
func Redact(key, val string) string {
	if val == "" || !secretKeys[key] {
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
// the password of postgres:// URIs and password=... parameters.
func RedactText(s string) string {
	s = uriPasswordRe.ReplaceAllString(s, "${1}redacted@")
	return kvPasswordRe.ReplaceAllString(s, "${1}redacted")
}
