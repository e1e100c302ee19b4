package configs

import (
	"bytes"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pgrst-lab/pgrst-lab/internal/interp"
)

func addGoldenSeeds(f *testing.F) {
	files, _ := filepath.Glob("testdata/golden/*.conf")
	for _, p := range files {
		b, _ := os.ReadFile(p)
		f.Add(b)
	}
	for _, s := range []string{"", "a = 1", "a = [1,[2,\"x\"]]\n", "g { b { c = on } }", "#; a = 1\nb = \"\\u00e9$$\"", "a=\"\n\""} {
		f.Add([]byte(s))
	}
}

type binding struct {
	key string
	val Value
}

func bindings(f *File) []binding {
	var out []binding
	for _, k := range f.Keys() {
		v, _ := f.Get(k)
		out = append(out, binding{k, v})
	}
	return out
}

func sameBindings(a, b []binding) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].key != b[i].key || !a[i].val.Equal(b[i].val) {
			return false
		}
	}
	return true
}

// FuzzParseRender: parsing never panics; Bytes is the input; the canonical
// rendering parses to the same bindings; re-setting every key to its own
// value keeps the bindings.
func FuzzParseRender(f *testing.F) {
	addGoldenSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		x, err := Parse("fuzz.conf", src)
		if err != nil {
			return
		}
		if !bytes.Equal(x.Bytes(), src) {
			t.Fatalf("Bytes differs from source")
		}
		want := bindings(x)
		y, err := Parse("canonical.conf", x.Canonical())
		if err != nil {
			t.Fatalf("canonical rendering does not parse: %v\n%s", err, x.Canonical())
		}
		if !sameBindings(bindings(y), want) {
			t.Fatalf("parse(render(parse(x))) != parse(x):\n%q\n%q", x.Canonical(), y.Canonical())
		}
		for _, b := range want {
			if err := x.Set(b.key, b.val); err != nil {
				if b.val.Kind() == KindString && interp.Check(b.val.Template()) != nil {
					continue // a template PostgREST would refuse is not rewritten
				}
				t.Fatalf("Set(%s) = %v", b.key, err)
			}
		}
		if !sameBindings(bindings(x), want) {
			t.Fatalf("re-setting values changed bindings")
		}
	})
}

// FuzzSetValue: whatever string a variant gives, Set adds exactly one key
// whose value reads back unchanged.
func FuzzSetValue(f *testing.F) {
	for _, s := range []string{"x", "a\"\nb = 1", "$(X)", "\\", "\r\n#", "\u2028", "é"} {
		f.Add("jwt-secret", s)
	}
	f.Fuzz(func(t *testing.T, key, s string) {
		if !utf8.ValidString(s) {
			return
		}
		file, _ := Parse("t.conf", []byte("# head\ndb-pool = 10 # tail\n"))
		if err := file.Set(key, String(s)); err != nil {
			if validKey(key) == nil {
				t.Fatalf("Set(%q, %q) refused: %v", key, s, err)
			}
			return
		}
		g, err := Parse("t.conf", file.Bytes())
		if err != nil {
			t.Fatalf("result does not parse: %v\n%s", err, file.Bytes())
		}
		keys := strings.Join(g.Keys(), "\x00")
		if key != "db-pool" && keys != "db-pool\x00"+key {
			t.Fatalf("keys = %q", keys)
		}
		if v, _ := g.Get(key); v.String() != s {
			t.Fatalf("read back %q, want %q", v.String(), s)
		}
		if !bytes.HasPrefix(file.Bytes(), []byte("# head\n")) {
			t.Fatal("first line changed")
		}
	})
}

// FuzzRedactURI: a password placed in a password position of a URI (the
// userinfo, raw or percent-encoded; a password= query parameter) or of
// key=value pairs (unquoted with \ escapes, quoted, spaces around =), with
// anything around it, never shows in RedactURI's output, unless the text
// around it (or "redacted") shows it with another password in its place.
func FuzzRedactURI(f *testing.F) {
	for _, s := range [][3]string{
		{"authenticator", "S3cr#tPW", "127.0.0.1:5432/db"},
		{"u", "p@ss/w?rd&x=1", "h1,h2/db?sslmode=disable"},
		{"u", "it's \\ \"q\"", "/db?host=/run/pg"},
		{"host=h port=5432", "se cret", "dbname=x"},
	} {
		for form := range uint8(6) {
			f.Add(form, s[0], s[1], s[2])
		}
	}
	f.Fuzz(func(t *testing.T, form uint8, pre, pw, post string) {
		if len(pw) < 4 {
			return // short passwords are everywhere in the text around them
		}
		build := func(pw string) (string, []string) {
			switch form % 6 {
			case 0:
				return "postgres://" + pre + ":" + pw + "@" + post, []string{pw}
			case 1:
				e := url.PathEscape(pw)
				return "postgresql://" + pre + ":" + e + "@" + post, []string{pw, e}
			case 2:
				key := []string{"password", "PassWord", "%70assword", "sslpassword"}[len(pre)%4]
				return "postgres://" + pre + "?x=1&" + key + "=" + pw + post, []string{pw}
			case 3:
				e := url.QueryEscape(pw)
				return "postgres://" + pre + "/db?password=" + e + "&" + post, []string{pw, e}
			case 4:
				r := strings.NewReplacer(`\`, `\\`, " ", `\ `, "\t", "\\\t", "\n", "\\\n", "\r", "\\\r", "\f", "\\\f", "\v", "\\\v", "'", `\'`)
				e := r.Replace(pw)
				return kvPairs(pre) + " password=" + e + " " + kvPairs(post), []string{pw, e}
			default:
				e := strings.NewReplacer(`\`, `\\`, "'", `\'`).Replace(pw)
				return kvPairs(pre) + " password = '" + e + "' " + kvPairs(post), []string{pw, e}
			}
		}
		s, secrets := build(pw)
		out := RedactURI(s)
		other, _ := build(strings.Repeat("\x01", len(pw)))
		for _, secret := range secrets {
			if strings.Contains(out, secret) && !strings.Contains(RedactURI(other), secret) {
				t.Fatalf("RedactURI(%q) = %q shows the password %q", s, out, secret)
			}
		}
	})
}

// kvPairs makes well-formed key=value pairs of s's letters and digits, so
// that the pairs around a password leave it in its position.
func kvPairs(s string) string {
	words := strings.FieldsFunc(s, func(r rune) bool {
		return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9')
	})
	var out []string
	for i := 0; i+1 < len(words); i += 2 {
		out = append(out, words[i]+"="+words[i+1])
	}
	return strings.Join(out, " ")
}
