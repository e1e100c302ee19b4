package capability

import (
	"regexp"
	"strings"
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

// EnvKey is the PostgREST key an environment variable sets: PGRST_DB_POOL
// sets db-pool, PGRST_APP_SETTINGS_x sets app.settings.x. ok is false for
// a name that is not PGRST_*.
func EnvKey(name string) (key string, ok bool) {
	rest, ok := strings.CutPrefix(name, "PGRST_")
	if !ok || rest == "" {
		return "", false
	}
	if s, ok := strings.CutPrefix(rest, "APP_SETTINGS_"); ok && s != "" {
		return "app.settings." + s, true
	}
	return strings.ToLower(strings.ReplaceAll(rest, "_", "-")), true
}

// ghcRTSFlag is one RTS option of GHCRTS (PostgREST is a Haskell program)
// that tunes the runtime and writes no file: -N, -A, -n, -H, -M, -F, -I,
// -c, -qg, -qn, -qb, -qa, -ki, -kc, -xn and -V, with numbers and sizes.
// Options that write files (-S, -s, -h, -l, -o...) are not in it.
var ghcRTSFlag = regexp.MustCompile(`^-(N[0-9]*|A[0-9]+[kKmMgG]?|n[0-9]+[kKmMgG]?|H[0-9]*[kKmMgG]?|M[0-9]+[kKmMgG%]?|F[0-9.]+|I[0-9.]+|c|qg[0-9]*|qn[0-9]+|qb[0-9]*|qa|ki[0-9]+[kKmMgG]?|kc[0-9]+[kKmMgG]?|xn|V[0-9.]+)$`)

// Env checks an environment variable for a variant and returns the
// PostgREST key it sets ("" for GHCRTS) and that key's class. A PGRST_*
// variable gets every rule of its key (PGRST_SERVER_UNIX_SOCKET is as
// fixed as server-unix-socket, PGRST_DB_URI=@/etc/shadow is an @file);
// GHCRTS may hold only runtime flags that write no file; any other name
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
		for _, f := range strings.Fields(val) {
			if !ghcRTSFlag.MatchString(f) {
				return "", Fixed, fail(Never, where, "RTS option %q is not one the lab allows (runtime tuning only, e.g. -N2 -A64m -qg -I0; no option that writes a file)", f)
			}
		}
		return "", Tune, nil
	}
	key, ok := EnvKey(name)
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

// RedactEnv is Redact for an environment variable.
func RedactEnv(name, val string) string {
	if key, ok := EnvKey(name); ok {
		return Redact(key, val)
	}
	return val
}
