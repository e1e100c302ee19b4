package configs

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
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
				if b.val.Kind() == KindString && validTemplate(b.val.Template()) != nil {
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
