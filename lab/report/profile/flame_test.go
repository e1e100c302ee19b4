package profile

import (
	"encoding/xml"
	"fmt"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

func st(count int64, frames ...string) lab.Stack { return lab.Stack{Frames: frames, Count: count} }

func TestFlameSVG(t *testing.T) {
	stacks := []lab.Stack{
		st(60, "postgrest", "main", "PostgREST.App.handle", "PostgREST.Query.SqlFragment.$wescapeIdent"),
		st(30, "postgrest", "main", "PostgREST.App.handle"),
		st(10, "postgresql", "PostgresMain", "exec_simple_query"),
	}
	svg := FlameSVG(stacks, `base <&> "flame"`)
	if err := xml.Unmarshal(svg, new(struct{})); err != nil {
		t.Fatalf("not XML: %v", err)
	}
	s := string(svg)
	// all, the 2 services, main, handle, escapeIdent, PostgresMain, exec_simple_query.
	if n := strings.Count(s, "<rect x="); n != 8 {
		t.Errorf("%d frames, want 8", n)
	}
	for _, want := range []string{"PostgREST.Query.SqlFragment.$wescapeIdent: 60 samples (60.00%)", "base &lt;&amp;&gt;", "all: 100 samples"} {
		if !strings.Contains(s, want) {
			t.Errorf("SVG lacks %q", want)
		}
	}
	if strings.Contains(s, "<script") {
		t.Error("SVG has a script")
	}
}

// A deep but narrow stack does not make the graph tall: only frames wide
// enough to draw count, and at most flameMaxDepth levels.
func TestFlameSVGHeight(t *testing.T) {
	deep := make([]string, 200)
	for i := range deep {
		deep[i] = fmt.Sprintf("f%d", i)
	}
	stacks := []lab.Stack{st(100000, "postgrest", "main", "work"), {Frames: deep, Count: 1}}
	svg := string(FlameSVG(stacks, "t"))
	if !strings.Contains(svg, `viewBox="0 0 1200 98"`) { // 4 levels of 17 + 30
		t.Errorf("height: %s", svg[:200])
	}
	stacks[1].Count = 100000
	svg = string(FlameSVG(stacks, "t"))
	if !strings.Contains(svg, `viewBox="0 0 1200 1135"`) { // 65 levels
		t.Errorf("height: %s", svg[:200])
	}
}

func TestFolded(t *testing.T) {
	got := string(Folded([]lab.Stack{st(3, "postgrest", "a;b", "c\nd"), st(1, "postgresql", "main")}))
	if want := "postgrest;a:b;c d 3\npostgresql;main 1\n"; got != want {
		t.Errorf("Folded = %q, want %q", got, want)
	}
}
