package connstr

import (
	"net/url"
	"regexp"
	"strings"
)

// kvPasswordAt finds "password =" (any case, sslpassword too) in a
// key=value string SplitKV cannot split; nextKeyRe the next "key=".
var (
	kvPasswordAt = regexp.MustCompile(`(?i)password\s*=\s*`)
	nextKeyRe    = regexp.MustCompile(`\s+[A-Za-z_]+\s*=`)
)

// Passwords returns the passwords in a connection string (URI or
// key=value), each as written and as libpq reads it (percent-decoded,
// unquoted and unescaped), so that free text that may echo one (an
// error, a log tail) can be cleaned of it by exact match. Like Redact it
// errs towards hiding: where a URI is ambiguous (several '@') each reading
// of its userinfo counts, a query value is also taken to the end of the
// string (a raw '&' in it), and where key=value pairs cannot be split (an
// unescaped space, an open quote) the text after "password=" up to the
// next "key=" counts, and each of its words.
func Passwords(s string) []string {
	var out []string
	add := func(vs ...string) {
		for _, v := range vs {
			if v != "" {
				out = append(out, v)
			}
		}
	}
	switch {
	case schemeRe.MatchString(s):
		rest := s[strings.Index(s, "://")+3:]
		for _, at := range []int{strings.IndexByte(rest, '@'), strings.LastIndexByte(rest, '@')} {
			if at < 0 {
				continue
			}
			if _, pw, ok := strings.Cut(rest[:at], ":"); ok {
				add(pw, unescape(url.PathUnescape, pw))
			}
		}
		if q := strings.IndexByte(rest, '?'); q >= 0 {
			query := rest[q+1:]
			for i, p := range strings.Split(query, "&") {
				k, v, _ := strings.Cut(p, "=")
				if dk, err := url.PathUnescape(k); err != nil || secretKey(dk) {
					tail := strings.Join(strings.Split(query, "&")[i:], "&")
					_, tail, _ = strings.Cut(tail, "=")
					add(v, unescape(url.QueryUnescape, v), tail)
				}
			}
		}
	case strings.Contains(s, "="):
		ps, err := SplitKV(s)
		if err == nil {
			for _, p := range ps {
				if secretKey(p.Key) {
					_, raw, _ := strings.Cut(p.Raw, "=")
					add(p.Val, strings.TrimSpace(raw))
				}
			}
			break
		}
		for _, m := range kvPasswordAt.FindAllStringIndex(s, -1) {
			v := s[m[1]:]
			if n := nextKeyRe.FindStringIndex(v); n != nil {
				v = v[:n[0]]
			}
			add(v, strings.Trim(v, `'`))
			add(strings.Fields(strings.NewReplacer(`\`, "", `'`, " ").Replace(v))...)
		}
	}
	return out
}

// unescape is f(v), or "" when v is not escaped right.
func unescape(f func(string) (string, error), v string) string {
	d, err := f(v)
	if err != nil {
		return ""
	}
	return d
}
