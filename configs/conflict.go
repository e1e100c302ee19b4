package configs

import (
	"bytes"
	"fmt"
	"strings"
)

// ConflictError is a file (or PostgreSQL setting) the journal will not
// overwrite: what is there now is neither what the lab wrote nor the
// original, so someone else changed it.
type ConflictError struct {
	Path   string
	Detail string // what differs, e.g. the first differing line
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("%s was changed by someone else since the lab wrote it (%s); not overwriting it: check it, then restore by hand or Forget the journal entry", e.Path, e.Detail)
}

// describeDiff names the first line where got differs from want.
func describeDiff(label string, want, got []byte, gotMissing bool) string {
	if gotMissing {
		return "the file was removed"
	}
	wl := strings.SplitAfter(string(want), "\n")
	gl := strings.SplitAfter(string(got), "\n")
	for i := 0; i < max(len(wl), len(gl)); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return fmt.Sprintf("line %d: %s %q, now %q", i+1, label, strings.TrimRight(w, "\r\n"), strings.TrimRight(g, "\r\n"))
		}
	}
	if !bytes.Equal(want, got) {
		return fmt.Sprintf("%d bytes, %s %d bytes", len(got), label, len(want))
	}
	return "same content"
}
