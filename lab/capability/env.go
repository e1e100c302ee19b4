package capability

import (
	"regexp"

	"github.com/pgrst-lab/pgrst-lab/internal/ghcrts"
	"github.com/pgrst-lab/pgrst-lab/lab/postgrest"
)

// envNameRe is a portable environment variable name.
var envNameRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// EnvName checks the form of an environment variable name.
func EnvName(name string) error {
	if !envNameRe.MatchString(name) {
		return &Error{Code: Invalid, Where: "env." + name, Msg: "is not an environment variable name (letters, digits and '_')"}
	}
	return nil
}

// Env checks an environment variable for a variant and returns the
// PostgREST key it sets ("" for GHCRTS) and that key's class. A PGRST_*
// variable gets every rule of its key (PGRST_SERVER_UNIX_SOCKET is as
// fixed as server-unix-socket, PGRST_DB_URI=@/etc/shadow is an @file);
// GHCRTS may hold only the runtime options internal/ghcrts allows (the
// rule +RTS arguments get too: tuning, bounded, nothing that writes a
// file); any other name
// is refused: the lab sets no other variable (LD_PRELOAD, PATH, ...).
func Env(name, val string) (key string, class Class, err error) {
	if err := EnvName(name); err != nil {
		return "", Fixed, err
	}
	where := "env." + name
	if err := Text(where, val); err != nil {
		return "", Fixed, err
	}
	if name == "GHCRTS" {
		if err := ghcrts.CheckEnv(val); err != nil {
			return "", Fixed, fail(Never, where, "%v", err)
		}
		return "", Tune, nil
	}
	key, ok := postgrest.EnvKey(name)
	if !ok {
		return "", Fixed, fail(Never, where, "the lab sets only PostgREST's PGRST_* variables and GHCRTS")
	}
	if key == "db-uri" && LabDBURI(val) {
		return "", Fixed, fail(Invalid, where, "%q is derived by the lab only for postgrest.db-uri; set postgrest.db-uri = %q instead", val, val)
	}
	class, err = PostgRESTKey(key, val)
	if err != nil {
		ce := err.(*Error)
		return key, class, &Error{Code: ce.Code, Where: where, Msg: "sets " + ce.Where + ", which is refused: " + ce.Msg}
	}
	if key == "db-uri" {
		class = Privileged
	}
	return key, class, nil
}
