package configs

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseValues(t *testing.T) {
	src := `s = "plain"
esc = "a\"b\\c\n\t\r\u00e9\ud83d\ude00"
interp = "$$HOME is $(HOME)"
t = true
o = on
f = off
n = -12
big = 1.5e3
frac = 0.25
l = [1, "two", [false]]
empty = []
`
	f, err := Parse("values.conf", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		key  string
		kind Kind
		str  string
	}{
		{"s", KindString, "plain"},
		{"esc", KindString, "a\"b\\c\n\t\ré😀"},
		{"interp", KindString, "$HOME is $(HOME)"},
		{"t", KindBool, "true"},
		{"o", KindBool, "true"},
		{"f", KindBool, "false"},
		{"n", KindNumber, "-12"},
		{"big", KindNumber, "1500"},
		{"frac", KindNumber, "0.25"},
		{"l", KindList, "1,two,false"},
		{"empty", KindList, ""},
	}
	for _, c := range cases {
		v, ok := f.Get(c.key)
		if !ok {
			t.Errorf("%s missing", c.key)
			continue
		}
		if v.Kind() != c.kind || v.String() != c.str {
			t.Errorf("%s = %v %q, want %v %q", c.key, v.Kind(), v.String(), c.kind, c.str)
		}
	}
	if got := strings.Join(f.Keys(), ","); got != "s,esc,interp,t,o,f,n,big,frac,l,empty" {
		t.Errorf("Keys = %s", got)
	}
}

func TestSyntaxErrors(t *testing.T) {
	cases := []struct {
		src       string
		line, col int
		msg       string
	}{
		{"a = 'single'\n", 1, 5, "double quotes"},
		{"a = 1\nb = \"open\n", 2, 5, "unterminated string"},
		{"a = 1 b = 2\n", 1, 7, "one key = value per line"},
		{"# c\n\n  = 3\n", 3, 3, "expected a key"},
		{"a = \"\\q\"\n", 1, 6, "invalid escape"},
		{"a = \"\\u12\"\n", 1, 6, "four hex digits"},
		{"a = [1, 2,]\n", 1, 11, "expected a value"},
		{"a = [1 2]\n", 1, 8, "expected , or ]"},
		{"import = 1\n", 1, 1, "reserved"},
		{"g { a = 1\n", 2, 1, "expected } to close group"},
		{"a 1\n", 1, 3, "expected = after key"},
		{"a = \n", 2, 1, "expected a value"},
		{"a. = 1\n", 1, 3, "must start with a letter"},
		{"a = \"\\ud800\"\n", 1, 6, "surrogates"},
		{"}\n", 1, 1, "expected a key"},
		{"a = 1\xff\n", 1, 6, "UTF-8"},
	}
	for _, c := range cases {
		_, err := Parse("bad.conf", []byte(c.src))
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%q: want *SyntaxError, got %v", c.src, err)
			continue
		}
		if se.Line != c.line || se.Col != c.col || !strings.Contains(se.Msg, c.msg) {
			t.Errorf("%q: got %v, want %d:%d %q", c.src, err, c.line, c.col, c.msg)
		}
		if !strings.HasPrefix(se.Error(), "bad.conf:") {
			t.Errorf("error %q does not start with the file name", se.Error())
		}
	}
}

// TestSetCannotInject: values with quotes, backslashes, dollars and
// newlines are rendered escaped; the file keeps exactly one new key and
// reads back the same text.
func TestSetCannotInject(t *testing.T) {
	nasty := []string{
		"x\"\ndb-pool = 999\n#",
		"\\\"\ndb-anon-role = \"postgres",
		"$(HOME)",
		"$$",
		"a\rserver-port = 1",
		"\u2028server-port = 1",
		"\x00\x01\x7f",
		"trailing backslash \\",
		"] = [ { } #",
		"é😀",
	}
	for _, s := range nasty {
		f, err := Parse("t.conf", []byte("db-pool = 10\n"))
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Set("jwt-secret", String(s)); err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		g, err := Parse("t.conf", f.Bytes())
		if err != nil {
			t.Fatalf("%q: rendered file does not parse: %v\n%s", s, err, f.Bytes())
		}
		if got := strings.Join(g.Keys(), ","); got != "db-pool,jwt-secret" {
			t.Errorf("%q injected keys: %s", s, got)
		}
		if v, _ := g.Get("jwt-secret"); v.String() != s {
			t.Errorf("%q read back as %q", s, v.String())
		}
		if strings.Count(string(f.Bytes()), "\n") != 2 {
			t.Errorf("%q: value spans lines:\n%s", s, f.Bytes())
		}
	}
}

func TestSetRefusesBadKeys(t *testing.T) {
	f, _ := Parse("t.conf", nil)
	for _, k := range []string{"", "import", "a b", "a\n= 1", "1abc", "a.", "x=y"} {
		if err := f.Set(k, Int(1)); err == nil {
			t.Errorf("Set(%q) accepted", k)
		}
	}
	if len(f.Bytes()) != 0 {
		t.Errorf("file changed: %q", f.Bytes())
	}
}

func TestSetInGroupAndDuplicates(t *testing.T) {
	src := "db-pool = 1\ng { a = 1 }\ndb-pool = 2 # wins\n"
	f, err := Parse("t.conf", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := f.Get("db-pool"); v.String() != "2" {
		t.Fatalf("db-pool = %s", v)
	}
	_ = f.Set("db-pool", Int(7))
	_ = f.Set("g.a", Bool(false))
	want := "db-pool = 1\ng { a = false }\ndb-pool = 7 # wins\n"
	if string(f.Bytes()) != want {
		t.Fatalf("got %q want %q", f.Bytes(), want)
	}
	f.Delete("db-pool")
	f.Delete("g.a")
	if string(f.Bytes()) != "g {  }\n" {
		t.Fatalf("after delete: %q", f.Bytes())
	}
}

// TestSetBeforeImportAppends: a binding followed by an import may be
// overridden by the imported file, so Set appends after the import and
// Load sees the new value.
func TestSetBeforeImportAppends(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "common.conf"), []byte("db-pool = 10\n"), 0o644)
	main := filepath.Join(dir, "main.conf")
	os.WriteFile(main, []byte("db-pool = 5\nimport \"common.conf\"\n"), 0o644)
	f, err := ParseFile(main)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Set("db-pool", Int(2)); err != nil {
		t.Fatal(err)
	}
	if string(f.Bytes()) != "db-pool = 5\nimport \"common.conf\"\ndb-pool = 2\n" {
		t.Fatalf("got %q", f.Bytes())
	}
	os.WriteFile(main, f.Bytes(), 0o644)
	if s, err := Load(main, nil); err != nil || s["db-pool"] != "2" {
		t.Fatalf("Load: %v %v", s, err)
	}
}
