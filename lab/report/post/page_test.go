package post

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
)

// Issue 54: post.html of the two real runs fits a 1280 px window in
// headless Chromium (no page-wide scroll), no chart label leaves its SVG,
// the page logs no error, and the charts are inline (no reference to a
// file beside it is left).
func TestPostPageFits1280(t *testing.T) {
	a, err := Build(realRuns(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	html, err := a.HTML()
	if err != nil {
		t.Fatal(err)
	}
	s := string(html)
	if len(a.Figures) == 0 || strings.Count(s, "<svg") < len(a.Figures) {
		t.Fatalf("%d figures, %d inline SVGs", len(a.Figures), strings.Count(s, "<svg"))
	}
	if strings.Contains(s, `<img src="`) {
		t.Error("a chart is left as a reference to its file, not inline")
	}
	for _, want := range []string{"<table>", "<h2>Methodology</h2>", "<h2>Reproduce</h2>"} {
		if !strings.Contains(s, want) {
			t.Errorf("post.html lacks %s", want)
		}
	}
	r := labtest.FitAt(t, html, "1280")
	t.Logf("scrollWidth %d, window %d, %d SVG texts", r.ScrollWidth, r.InnerWidth, r.Texts)
	if r.InnerWidth != 1280 || r.ScrollWidth > r.InnerWidth {
		t.Errorf("the page is %d px wide in a %d px window", r.ScrollWidth, r.InnerWidth)
	}
	if r.Texts == 0 {
		t.Error("no SVG text measured: the charts are missing")
	}
	for _, c := range r.Clipped {
		t.Errorf("label outside its chart: %s", c)
	}
	for _, e := range r.Errors {
		t.Errorf("page error: %s", e)
	}
}

// Write puts post.md, each chart as a standalone SVG file that post.md
// refers to, and post.html into the directory.
func TestWriteFiles(t *testing.T) {
	a, err := Build(realRuns(t), Options{Title: "A title"})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "out")
	files, err := a.Write(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2+len(a.Figures) || filepath.Base(files[0]) != MarkdownFile {
		t.Fatalf("wrote %v", files)
	}
	md, err := os.ReadFile(filepath.Join(dir, MarkdownFile))
	if err != nil || !strings.HasPrefix(string(md), "# A title\n") {
		t.Fatalf("post.md: %v %.40q", err, md)
	}
	for _, f := range a.Figures {
		b, err := os.ReadFile(filepath.Join(dir, f.File))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(b), "<?xml") || !strings.Contains(string(b), `xmlns="http://www.w3.org/2000/svg"`) {
			t.Errorf("%s is not a standalone SVG: %.120s", f.File, b)
		}
		if !strings.Contains(string(md), "]("+f.File+")") {
			t.Errorf("post.md does not refer to %s", f.File)
		}
	}
}
