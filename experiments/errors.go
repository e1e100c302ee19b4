package experiments

import (
	"fmt"
	"strings"
)

// Error is one problem of an experiment file, at a line.
type Error struct {
	File string
	Line int    // 1-based; 0 when the problem has no line (e.g. a missing table)
	Path string // the field or table concerned, e.g. variant[1].postgrest; "" for the top level
	Err  error
}

// Error renders "file:line: path: message", e.g.
//
//	experiments/x.toml:12: variant[1].postgrest: unknown key "db-pol" (did you mean "db-pool"?)
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.Path != "" {
		b.WriteString(e.Path + ": ")
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// Errors is every problem found in an experiment file, in line order; each
// is an *Error.
type Errors []error

// Error joins the problems, one per line.
func (es Errors) Error() string {
	s := make([]string, len(es))
	for i, e := range es {
		s[i] = e.Error()
	}
	return strings.Join(s, "\n")
}

// Unwrap gives the problems to errors.Is and errors.As.
func (es Errors) Unwrap() []error { return es }

// UnknownKey is a key the file format (or, from a KeyValidator, PostgREST's
// catalogue) does not know. Its Error names the key and the closest known one.
type UnknownKey struct {
	Key     string
	Suggest string // closest known key; "" if none is close
}

func (e *UnknownKey) Error() string {
	s := fmt.Sprintf("unknown key %q", e.Key)
	if e.Suggest != "" {
		s += fmt.Sprintf(" (did you mean %q?)", e.Suggest)
	}
	return s
}
