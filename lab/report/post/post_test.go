package post

import (
	"compress/gzip"
	"flag"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden with the current output")

// realRuns are the recorded limits runs of PostgREST 13.0.8 and 14.17
// (testdata/*.run.json.gz), each unpacked into a result directory.
func realRuns(t *testing.T) []Source {
	t.Helper()
	var dirs []string
	for _, v := range []string{"13.0.8", "14.17"} {
		f, err := os.Open(filepath.Join("testdata", "limits-"+v+".run.json.gz"))
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(zr)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(t.TempDir(), v)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "run.json"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, dir)
	}
	srcs, err := Load(dirs)
	if err != nil {
		t.Fatal(err)
	}
	return srcs
}

// TestGolden: the article of the two real runs is post.md.golden.
func TestGolden(t *testing.T) {
	a, err := Build(realRuns(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "post.md.golden")
	if *update {
		if err := os.WriteFile(path, []byte(a.Markdown), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if a.Markdown != string(want) {
		got := filepath.Join(t.TempDir(), "post.md")
		os.WriteFile(got, []byte(a.Markdown), 0o644)
		t.Errorf("post.md differs from %s; got written to %s", path, got)
	}
}

// TestSummaryNumbersInTables: every number of the summary's two
// sentences appears in a table row of the article (the same figure,
// formatted once).
func TestSummaryNumbersInTables(t *testing.T) {
	a, err := Build(realRuns(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Summary) != 2 {
		t.Fatalf("summary has %d sentences, want 2: %q", len(a.Summary), a.Summary)
	}
	var tables strings.Builder
	for _, l := range strings.Split(a.Markdown, "\n") {
		if strings.HasPrefix(l, "|") {
			tables.WriteString(l + "\n")
		}
	}
	cells := regexp.MustCompile(`[0-9][0-9,.]*[0-9]|[0-9]`)
	nums := cells.FindAllString(strings.Join(a.Summary, " "), -1)
	if len(nums) < 4 {
		t.Fatalf("summary states %d numbers, want the runs' limits: %q", len(nums), a.Summary)
	}
	inTables := map[string]bool{}
	for _, n := range cells.FindAllString(tables.String(), -1) {
		inTables[n] = true
	}
	for _, n := range nums {
		if !inTables[n] {
			t.Errorf("summary's %q is in no table\nsummary: %q", n, a.Summary)
		}
	}
}

// Issue 54: a figure that appears in several tables reads the same in
// each: every run's limit of every scenario is the same string in the
// limits table, the comparison's table and the 2020 table.
func TestLimitReadsTheSameEverywhere(t *testing.T) {
	srcs := realRuns(t)
	a, err := Build(srcs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sections := map[string]string{}
	for _, part := range strings.Split(a.Markdown, "\n## ")[1:] {
		title, body, _ := strings.Cut(part, "\n")
		sections[title] = body
	}
	// row is the cells of the scenario's rows in a section (the limits
	// table has one per run).
	row := func(section, scenario string) []string {
		var cells []string
		for _, line := range strings.Split(sections[section], "\n") {
			if strings.HasPrefix(line, "| "+scenario+" |") {
				cells = append(cells, strings.Split(line, " | ")...)
			}
		}
		return cells
	}
	cols := columns(srcs)
	checked := 0
	for _, l := range limitRows(srcs, cols) {
		if l.Row.Rate.N == 0 {
			continue
		}
		sc := l.Row.Scenario
		for _, sec := range []string{"Limits", "PostgREST 14.17 against PostgREST 13.0.8", "Beside the 2020 benchmark"} {
			cells := row(sec, sc)
			if cells == nil {
				t.Errorf("%s: no row for %s", sec, sc)
				continue
			}
			if !slices.Contains(cells, l.Cells.Rate) {
				t.Errorf("%s: %s's %s limit %q is not in its row %q", sec, l.Col.Name, sc, l.Cells.Rate, cells)
			}
			checked++
		}
	}
	if checked < 12 {
		t.Errorf("checked %d figures, want every scenario of both runs in three tables", checked)
	}
}
