package configs

import (
	"bufio"
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/golden/*.want")

// TestGoldenRoundTrip: every real-world-looking config parses and renders
// back byte for byte.
func TestGoldenRoundTrip(t *testing.T) {
	files, _ := filepath.Glob("testdata/golden/*.conf")
	if len(files) < 5 {
		t.Fatalf("expected golden configs, found %d", len(files))
	}
	files = append(files, "crlf")
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src := goldenSrc(t, path)
			f, err := Parse(path, src)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(f.Bytes(), src) {
				t.Fatalf("round trip changed bytes:\n%q\n%q", src, f.Bytes())
			}
			if len(f.Keys()) == 0 {
				t.Fatal("no keys found")
			}
		})
	}
}

func goldenSrc(t *testing.T, path string) []byte {
	if path == "crlf" {
		return []byte("# windows editor\r\ndb-pool = 3\r\n\r\nlog-level = \"warn\" # c\r\n")
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// TestGoldenEdits applies X.conf.edits ("set key raw" / "delete key") to
// X.conf and compares with X.conf.want; each single edit must change only
// the lines of its key.
func TestGoldenEdits(t *testing.T) {
	scripts, _ := filepath.Glob("testdata/golden/*.edits")
	if len(scripts) == 0 {
		t.Fatal("no edit scripts")
	}
	for _, script := range scripts {
		conf := strings.TrimSuffix(script, ".edits")
		t.Run(filepath.Base(conf), func(t *testing.T) {
			src := goldenSrc(t, conf)
			f, err := Parse(conf, src)
			if err != nil {
				t.Fatal(err)
			}
			sc, _ := os.ReadFile(script)
			s := bufio.NewScanner(bytes.NewReader(sc))
			for s.Scan() {
				op, rest, _ := strings.Cut(s.Text(), " ")
				key, raw, _ := strings.Cut(rest, " ")
				before := f.Bytes()
				_, existed := f.Get(key)
				switch op {
				case "set":
					v, err := ParseValue(key, raw)
					if err != nil {
						t.Fatal(err)
					}
					if err := f.Set(key, v); err != nil {
						t.Fatal(err)
					}
					got, ok := f.Get(key)
					if !ok || got.String() != raw {
						t.Fatalf("after set %s %q: Get = %q, %v", key, raw, got.String(), ok)
					}
					removed, added := changedLines(before, f.Bytes())
					if !minimalSet(existed, before, removed, added) {
						t.Errorf("set %s: not a minimal diff: -%d +%d lines", key, removed, added)
					}
				case "delete":
					f.Delete(key)
					if _, ok := f.Get(key); ok {
						t.Fatalf("delete %s: still there", key)
					}
					removed, added := changedLines(before, f.Bytes())
					if removed != 1 || added != 0 {
						t.Errorf("delete %s: not a minimal diff: -%d +%d lines", key, removed, added)
					}
				default:
					t.Fatalf("bad op %q", op)
				}
				// The edited file still parses to the same keys as the edit says.
				if _, err := Parse(conf, f.Bytes()); err != nil {
					t.Fatalf("after %s: %v", s.Text(), err)
				}
			}
			want := conf + ".want"
			if *update {
				if err := os.WriteFile(want, f.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			wb, err := os.ReadFile(want)
			if err != nil {
				t.Fatalf("%v (run go test -run TestGoldenEdits -update)", err)
			}
			if !bytes.Equal(wb, f.Bytes()) {
				t.Errorf("edited %s differs from %s:\n%s", conf, want, f.Bytes())
			}
		})
	}
}

// minimalSet says whether a set changed only its own line: an existing
// key's line is replaced (-1 +1); a new key adds one line (+1), and the last
// line too when the file had no final newline (-1 +2).
func minimalSet(existed bool, before []byte, removed, added int) bool {
	if existed {
		return removed == 1 && added == 1
	}
	noFinalNewline := len(before) > 0 && !bytes.HasSuffix(before, []byte("\n"))
	return removed == 0 && added == 1 || noFinalNewline && removed == 1 && added == 2
}

// changedLines strips the common leading and trailing lines of a and b and
// returns how many lines remain on each side.
func changedLines(a, b []byte) (removed, added int) {
	la := strings.SplitAfter(string(a), "\n")
	lb := strings.SplitAfter(string(b), "\n")
	for len(la) > 0 && len(lb) > 0 && la[0] == lb[0] {
		la, lb = la[1:], lb[1:]
	}
	for len(la) > 0 && len(lb) > 0 && la[len(la)-1] == lb[len(lb)-1] {
		la, lb = la[:len(la)-1], lb[:len(lb)-1]
	}
	count := func(ls []string) int {
		n := 0
		for _, l := range ls {
			if l != "" {
				n++
			}
		}
		return n
	}
	return count(la), count(lb)
}

func TestMinimalSet(t *testing.T) {
	for _, c := range []struct {
		existed        bool
		before         string
		removed, added int
		want           bool
	}{
		{true, "a = 1\n", 1, 1, true},
		{true, "a = 1\n", 1, 2, false},
		{false, "a = 1\n", 0, 1, true},
		{false, "a = 1\n", 0, 2, false}, // a new key that adds two lines
		{false, "a = 1\n", 1, 2, false},
		{false, "a = 1", 1, 2, true},
		{false, "a = 1", 2, 3, false},
	} {
		if got := minimalSet(c.existed, []byte(c.before), c.removed, c.added); got != c.want {
			t.Errorf("minimalSet(%v, %q, -%d +%d) = %v", c.existed, c.before, c.removed, c.added, got)
		}
	}
}
