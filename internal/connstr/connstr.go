// Package connstr reads libpq connection strings as far as hiding their
// passwords needs: the key=value form's tokens, and Redact, which fails
// closed.
package connstr

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
)

// Pair is one key=value of libpq's key=value form; Raw is its text as
// written (key, '=', value, with any white space between).
type Pair struct{ Key, Val, Raw string }

// IsSpace is libpq's white space between pairs (isspace).
func IsSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// SplitKV splits libpq's key=value form, "host=h port=5432 password='a b'":
// white space around '=' allowed, a value single-quoted or not, \ escaping
// the next byte in either. Its errors name no value and no key (a key may
// be the rest of a password with a space).
func SplitKV(s string) ([]Pair, error) {
	var out []Pair
	i := 0
	for {
		for i < len(s) && IsSpace(s[i]) {
			i++
		}
		if i >= len(s) {
			return out, nil
		}
		start := i
		for i < len(s) && s[i] != '=' && !IsSpace(s[i]) {
			i++
		}
		key := s[start:i]
		for i < len(s) && IsSpace(s[i]) {
			i++
		}
		if i >= len(s) || s[i] != '=' || key == "" {
			return nil, fmt.Errorf("missing = after the key at byte %d of the key=value connection string", start)
		}
		i++
		for i < len(s) && IsSpace(s[i]) {
			i++
		}
		var val strings.Builder
		if i < len(s) && s[i] == '\'' {
			i++
			closed := false
			for i < len(s) {
				if s[i] == '\\' && i+1 < len(s) {
					val.WriteByte(s[i+1])
					i += 2
					continue
				}
				if s[i] == '\'' {
					i++
					closed = true
					break
				}
				val.WriteByte(s[i])
				i++
			}
			if !closed {
				return nil, fmt.Errorf("unterminated quoted value at byte %d of the key=value connection string", start)
			}
		} else {
			for i < len(s) && !IsSpace(s[i]) {
				if s[i] == '\\' && i+1 < len(s) {
					i++
				}
				val.WriteByte(s[i])
				i++
			}
		}
		out = append(out, Pair{Key: key, Val: val.String(), Raw: s[start:i]})
	}
}

// Hidden replaces a password; Whole replaces a string Redact cannot read.
const (
	Hidden = "redacted"
	Whole  = "<redacted>"
)

// secretKey reports whether a connection parameter holds a secret
// (password, sslpassword), whatever its case.
func secretKey(k string) bool { return strings.Contains(strings.ToLower(k), "password") }

var schemeRe = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*://`)

// Redact returns a connection string fit to show: URI or key=value form,
// its passwords replaced by "redacted". It fails closed: what it cannot
// read is hidden, not shown.
//
//   - A URI (any scheme://): the userinfo is what libpq takes, up to the
//     first '@' before the first '/'; its password is hidden, the user
//     kept. When another '@' follows (a raw '@' or '/' in a password, or
//     an '@' later on), or the user holds '?', '&' or '=' (a query
//     parameter?), everything from the scheme up to the last '@' is
//     hidden. In the query, a parameter whose name (percent-decoded, or
//     undecodable) contains "password" hides its value and everything
//     after it (a raw '&' in the password would split it).
//   - key=value pairs: password and sslpassword values are hidden; a
//     string libpq's rules cannot split (an unterminated quote, a
//     password with an unescaped space) is hidden whole.
//   - Anything else non-empty (not a connection string libpq reads) is
//     hidden whole.
func Redact(s string) string {
	switch {
	case s == "":
		return s
	case schemeRe.MatchString(s):
		return redactURI(s)
	case strings.Contains(s, "="):
		ps, err := SplitKV(s)
		if err != nil {
			return Whole
		}
		out := make([]string, len(ps))
		for i, p := range ps {
			out[i] = p.Raw
			if secretKey(p.Key) {
				out[i] = p.Key + "=" + Hidden
			}
		}
		return strings.Join(out, " ")
	}
	return Whole
}

func redactURI(s string) string {
	sep := strings.Index(s, "://") + 3
	scheme, rest := s[:sep], s[sep:]
	head := ""
	if last := strings.LastIndexByte(rest, '@'); last >= 0 {
		first := strings.IndexAny(rest, "@/")
		user, _, hasPW := strings.Cut(rest[:last], ":")
		switch {
		case rest[first] != '@' || first != last || strings.ContainsAny(user, "?&="):
			head = Hidden + "@" // a user that looks like a query may hold one
		case hasPW:
			head = user + ":" + Hidden + "@"
		default:
			head = user + "@"
		}
		rest = rest[last+1:]
	}
	q := strings.IndexByte(rest, '?')
	if q < 0 {
		return scheme + head + rest
	}
	params := strings.Split(rest[q+1:], "&")
	for i, p := range params {
		k, _, _ := strings.Cut(p, "=")
		dk, err := url.PathUnescape(k)
		if err != nil || secretKey(dk) {
			params = append(params[:i], k+"="+Hidden)
			break
		}
	}
	return scheme + head + rest[:q+1] + strings.Join(params, "&")
}
