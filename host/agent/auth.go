package agent

import (
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"syscall"
)

// ReadToken reads a bearer token from a file that only its owner may read
// or write (mode 0600 or stricter) and that belongs to the user reading it
// (as OpenSSH's StrictModes): the token is the key to a service that
// rewrites configs as root. Surrounding white space is ignored.
func ReadToken(path string) ([]byte, error) {
	if err := privateFile("token file", path); err != nil {
		return nil, err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("token file: %w", err)
	}
	tok := []byte(strings.TrimSpace(string(b)))
	if len(tok) < 16 {
		return nil, fmt.Errorf("token file %s: token has %d characters, want at least 16 (e.g. `openssl rand -hex 32 > %s`)", path, len(tok), path)
	}
	return tok, nil
}

// privateFile refuses a file that is not regular, that others may read or
// write, or that another user owns (who could then replace it).
func privateFile(what, path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s %s: not a regular file", what, path)
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Errorf("%s %s: mode %04o lets others read it; run `chmod 600 %s`", what, path, perm, path)
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Geteuid() {
		return fmt.Errorf("%s %s: owned by uid %d, not by the agent's uid %d; run `chown %d %s`", what, path, st.Uid, os.Geteuid(), os.Geteuid(), path)
	}
	return nil
}

var errNoToken = errors.New("missing bearer token (Authorization: Bearer TOKEN)")
var errBadToken = errors.New("wrong bearer token")

// checkToken compares the request's bearer token with want in constant
// time (over hashes, so the length does not leak either).
func checkToken(r *http.Request, want []byte) error {
	h := r.Header.Get("Authorization")
	scheme, tok, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || tok == "" {
		return errNoToken
	}
	got := sha256.Sum256([]byte(strings.TrimSpace(tok)))
	exp := sha256.Sum256(want)
	if subtle.ConstantTimeCompare(got[:], exp[:]) != 1 {
		return errBadToken
	}
	return nil
}
