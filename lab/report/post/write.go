package post

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/pgrst-lab/pgrst-lab/internal/textsafe"
)

// Files are the names Write gives the article's two forms.
const (
	MarkdownFile = "post.md"
	HTMLFile     = "post.html"
)

// Write puts the article into dir (made if missing): post.md with its
// charts as SVG files beside it, and post.html with the charts inline. It
// returns the files written, post.md first.
func (a *Article) Write(dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("post: %w", err)
	}
	html, err := a.HTML()
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{MarkdownFile: []byte(a.Markdown), HTMLFile: html}
	names := []string{MarkdownFile}
	for _, f := range a.Figures {
		files[f.File] = []byte(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + string(f.SVG) + "\n")
		names = append(names, f.File)
	}
	names = append(names, HTMLFile)
	var out []string
	for _, n := range names {
		p := filepath.Join(dir, n)
		if err := os.WriteFile(p, files[n], 0o644); err != nil {
			return out, fmt.Errorf("post: %w", err)
		}
		out = append(out, p)
	}
	return out, nil
}

// Terminal says on a terminal what was written: the title, the summary,
// the files (every string from the runs made plain text).
func (a *Article) Terminal(w io.Writer, files []string) {
	fmt.Fprintf(w, "%s\n\n", textsafe.Plain(a.Title))
	for _, s := range a.Summary {
		fmt.Fprintln(w, textsafe.Plain(s))
	}
	fmt.Fprintln(w)
	for _, f := range files {
		fmt.Fprintf(w, "wrote %s\n", textsafe.Plain(f))
	}
}
