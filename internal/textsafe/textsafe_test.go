package textsafe_test

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pgrst-lab/pgrst-lab/internal/textsafe"
	"github.com/pgrst-lab/pgrst-lab/lab"
)

// hostile strings an agent could send in any field.
var hostile = map[string]string{
	"clear screen":  "evil\x1b[2Jhost",
	"osc title":     "a\x1b]0;pwned\x07b",
	"newline":       "line1\nline2\r\n| x |",
	"bell and nul":  "a\x07b\x00c",
	"c1 csi":        "a\u009b31mb",
	"bidi override": "abc\u202edcba",
	"invalid utf-8": "a\xffb",
	"long":          strings.Repeat("x", 10<<10),
}

func TestCleanText(t *testing.T) {
	want := map[string]string{
		"clear screen": "evilhost", "osc title": "ab", "newline": "line1 line2  | x |", "bell and nul": "abc",
		"c1 csi": "ab", "bidi override": "abcdcba", "invalid utf-8": "a\uFFFDb",
	}
	for name, in := range hostile {
		got := textsafe.CleanText(in)
		for _, r := range got {
			if r < 0x20 || (r >= 0x7f && r <= 0x9f) || r == '\u202e' {
				t.Errorf("%s: %q keeps control character %U", name, got, r)
			}
		}
		if n := utf8.RuneCountInString(got); n > textsafe.MaxText {
			t.Errorf("%s: %d runes, want at most %d", name, n, textsafe.MaxText)
		}
		if w, ok := want[name]; ok && got != w {
			t.Errorf("%s: CleanText(%q) = %q, want %q", name, in, got, w)
		}
	}
	if got := textsafe.CleanText(hostile["long"]); !strings.HasSuffix(got, "…") {
		t.Errorf("a cut string does not say so: ...%q", got[len(got)-10:])
	}
	if s := "db-pool = 10 · ok ×1.5"; textsafe.CleanText(s) != s {
		t.Errorf("a clean string was changed: %q", textsafe.CleanText(s))
	}
}

func TestCleanStringsWalksEveryString(t *testing.T) {
	type inner struct {
		S []string
		M map[string]string
		P *string
	}
	p := "p\x1b[2J"
	v := struct {
		Host   lab.Host
		In     inner
		Any    any
		hidden string
	}{Host: lab.Host{Hostname: "h\nx", CPUModel: hostile["long"]},
		In:  inner{S: []string{"a|\n"}, M: map[string]string{"k\x1b[1m": "v\r"}, P: &p},
		Any: "i\x07", hidden: "\x1b"}
	textsafe.CleanStrings(&v)
	if v.Host.Hostname != "h x" || utf8.RuneCountInString(v.Host.CPUModel) != textsafe.MaxText || v.In.S[0] != "a| " ||
		v.In.M["k"] != "v " || *v.In.P != "p" || v.Any != "i" || v.hidden != "\x1b" {
		t.Errorf("not cleaned: %+v (map %q, pointer %q, any %q)", v.Host.Hostname, v.In.M, *v.In.P, v.Any)
	}
}

// Plain is CleanText without the bound on length; Lines keeps line feeds
// and tabs (a page, an error of several lines) and drops the rest.
func TestPlainAndLines(t *testing.T) {
	long := strings.Repeat("x", 3*textsafe.MaxText)
	if got := textsafe.Plain(long + "\x1b[2J"); got != long {
		t.Errorf("Plain cut or kept the escape: %d runes", utf8.RuneCountInString(got))
	}
	if got := textsafe.Plain("a\nb\x1b[2Jc\x07\u009b31md"); got != "a bcd" {
		t.Errorf("Plain = %q", got)
	}
	if got := textsafe.Lines("a\r\n\tb\x1b]0;t\x07c\u009b31m\nd\u202e"); got != "a\n\tbc\nd" {
		t.Errorf("Lines = %q", got)
	}
}

type named string

// Fprintf cleans every string argument, of any string type, and errors;
// numbers print as they are.
func TestFprintf(t *testing.T) {
	var b strings.Builder
	textsafe.Fprintf(&b, "%s|%v|%s|%d|%q", "a\x1b[2Jb", errors.New("e\nf\x07"), named("n\u009b1m"), 42, "q\x1b")
	if got, want := b.String(), `ab|e f|n|42|"q"`; got != want {
		t.Errorf("Fprintf = %q, want %q", got, want)
	}
}
