package experiments

import (
	"strings"
	"testing"
)

func TestLineIndex(t *testing.T) {
	src := `# comment [not = a table]
a = 1
s = """
[fake]
b = 2
"""
lit = '''
x = 1'''
arr = [
  "one",   # comment ]
  ["two", "three"],
  { k = 1 },
]

[t]
"quoted.key" = "v" # [x]
dotted.inner = 1

[[v]]
name = "first"
inline = { p = 1, q = { r = 2 } }

[v.sub]
x = "in first"

[[v]]
name = "second"
[v.sub]
x = "in second"
[[v.list]]
y = 1
[[v.list]]
y = 2

[t2]  # after arrays
'esc"aped' = "a\"b"
last = 1
`
	ix := indexLines([]byte(src))
	for path, want := range map[string]int{
		"a":               2,
		"s":               3,
		"lit":             7,
		"arr":             9,
		"arr[0]":          10,
		"arr[1]":          11,
		"arr[1][1]":       11,
		"arr[2]":          12,
		"arr[2].k":        12,
		"t":               15,
		"t.quoted.key":    0, // a quoted key with a dot is one segment: see below
		"t.dotted":        17,
		"t.dotted.inner":  17,
		"v[0]":            19,
		"v[0].name":       20,
		"v[0].inline.p":   21,
		"v[0].inline.q.r": 21,
		"v[0].sub":        23,
		"v[0].sub.x":      24,
		"v[1]":            26,
		"v[1].name":       27,
		"v[1].sub.x":      29,
		"v[1].list[0].y":  31,
		"v[1].list[1]":    32,
		"v[1].list[1].y":  33,
		"t2":              35,
		"t2.last":         37,
		"fake":            0,
		"b":               0,
		"x":               0,
	} {
		got, ok := ix[pathKey(strings.Split(path, "."))]
		if want == 0 {
			if ok {
				t.Errorf("%s: indexed at line %d, should not be", path, got)
			}
			continue
		}
		if got != want {
			t.Errorf("%s: line %d, want %d", path, got, want)
		}
	}
	if got := ix[pathKey([]string{"t", "quoted.key"})]; got != 16 {
		t.Errorf(`t."quoted.key": line %d, want 16`, got)
	}
	if got := ix[pathKey([]string{"t2", `esc"aped`})]; got != 36 {
		t.Errorf(`t2.'esc"aped': line %d, want 36`, got)
	}
	// A missing key falls back to its nearest written ancestor.
	if got := ix.line([]string{"v[1]", "sub", "missing"}); got != 28 {
		t.Errorf("fallback: line %d, want 28", got)
	}
	if got := ix.line([]string{"nowhere"}); got != 0 {
		t.Errorf("unknown path: line %d, want 0", got)
	}
}
