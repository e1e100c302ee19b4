package capability

import (
	"strings"

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
