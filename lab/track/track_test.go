package track

import (
	"strings"
	"testing"
	"time"
)

func commits(n int) []Commit {
	var cs []Commit
	for i := range n {
		cs = append(cs, Commit{SHA: strings.Repeat(string(rune('a'+i)), 40), Subject: "commit " + string(rune('a'+i))})
	}
	return cs
}

func shas(cs []Commit) string {
	var b strings.Builder
	for _, c := range cs {
		b.WriteByte(c.SHA[0])
	}
	return b.String()
}

func TestSelect(t *testing.T) {
	cs := commits(8) // a..h
	done := func(s string) func(string) bool {
		return func(sha string) bool { return strings.IndexByte(s, sha[0]) >= 0 }
	}
	for _, tc := range []struct {
		name       string
		measured   string
		s          Selection
		want, skip string
		limited    int
	}{
		{"all", "", Selection{}, "abcdefgh", "", 0},
		{"skips measured", "bd", Selection{}, "acefgh", "bd", 0},
		{"every 3", "", Selection{Every: 3}, "adg", "", 0},
		{"since", "", Selection{Since: cs[5].SHA}, "fgh", "", 0},
		{"since every 2", "f", Selection{Since: cs[3].SHA, Every: 2}, "dh", "f", 0},
		{"limit oldest first", "a", Selection{Limit: 3}, "bcd", "a", 4},
	} {
		p, err := Select(cs, done(tc.measured), tc.s)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := shas(p.Measure); got != tc.want {
			t.Errorf("%s: measure %s, want %s", tc.name, got, tc.want)
		}
		if got := shas(p.Measured); got != tc.skip || p.Limited != tc.limited {
			t.Errorf("%s: measured %s limited %d, want %s and %d", tc.name, got, p.Limited, tc.skip, tc.limited)
		}
	}
	if _, err := Select(cs, nil, Selection{Since: "0123456"}); err == nil || !strings.Contains(err.Error(), "0123456") {
		t.Errorf("unknown since: %v", err)
	}
	if _, err := Select(cs, nil, Selection{Every: -1}); err == nil {
		t.Error("every -1: no error")
	}
	// Two tags of one commit measure it once.
	two := []Commit{{SHA: cs[0].SHA, Tag: "v1.2.0"}, {SHA: cs[0].SHA, Tag: "v1.10.0"}}
	if p, _ := Select(two, nil, Selection{}); len(p.Measure) != 1 {
		t.Errorf("a commit tagged twice: %+v", p.Measure)
	}
}

func TestETA(t *testing.T) {
	var e ETA
	if _, ok := e.Left(3, 3); ok {
		t.Error("an ETA before any run")
	}
	e.Built(0, true) // cached: no time, no count
	e.Ran(10 * time.Second)
	if left, ok := e.Left(2, 2); !ok || left != 20*time.Second {
		t.Errorf("after a cached build and a 10s run: %v %v, want 20s (builds unknown count as 0)", left, ok)
	}
	e.Built(60*time.Second, false)
	e.Built(120*time.Second, false)
	e.Ran(20 * time.Second)
	// 2 builds × 90s + 3 runs × 15s
	if left, _ := e.Left(2, 3); left != 225*time.Second {
		t.Errorf("left %v, want 3m45s", left)
	}
	c := Commit{SHA: strings.Repeat("ab", 20), Subject: "add +RTS -N1"}
	line := e.Line(3, 8, c, "running", 130*time.Second, 1, 1)
	if want := "commit 3/8 abababa (add +RTS -N1): running…, 2m10s elapsed, ~1m45s left"; line != want {
		t.Errorf("line %q, want %q", line, want)
	}
	if got := (Commit{SHA: c.SHA, Tag: "v1.2.0", Subject: "x"}).Label(); got != "abababa (v1.2.0)" {
		t.Errorf("tag label %q", got)
	}
}
