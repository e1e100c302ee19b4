package format

import (
	"bytes"
	"html/template"
	"io"

	"github.com/pgrst-lab/pgrst-lab/internal/textsafe"
)

// ExecuteHTML writes the page t renders from data: html/template escapes
// every string for its context, and the page then passes through
// textsafe.Lines, so no terminal escape or other control character from
// a file, an agent, a server or git reaches the file (or a terminal that
// shows it). Every HTML page of the reports is written through it.
func ExecuteHTML(w io.Writer, t *template.Template, data any) error {
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		return err
	}
	_, err := io.WriteString(w, textsafe.Lines(b.String()))
	return err
}
