package matrix

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
)

// Files written by Write, in order.
var Files = []string{"matrix.md", "matrix.html", "matrix.json"}

// Write writes matrix.md, matrix.html and matrix.json into dir, each
// to a temporary name first.
func Write(dir string, m *Matrix) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("matrix: %w", err)
	}
	writers := map[string]func(io.Writer) error{
		"matrix.md":   func(w io.Writer) error { return Markdown(w, m, dir) },
		"matrix.html": func(w io.Writer) error { return HTML(w, m, dir) },
		"matrix.json": func(w io.Writer) error { return JSON(w, m, dir) },
	}
	for _, name := range Files {
		var b bytes.Buffer
		if err := writers[name](&b); err != nil {
			return fmt.Errorf("write %s: %w", name, err)
		}
		if err := format.WriteFile(filepath.Join(dir, name), b.Bytes()); err != nil {
			return err
		}
	}
	return nil
}
