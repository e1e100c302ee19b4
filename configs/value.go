package configs

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pgrst-lab/pgrst-lab/internal/interp"
)

// Kind is the syntactic type of a config value.
type Kind int

// The kinds of values configurator-pg knows.
const (
	KindString Kind = iota
	KindBool
	KindNumber
	KindList
)

func (k Kind) String() string {
	switch k {
	case KindString:
		return "string"
	case KindBool:
		return "bool"
	case KindNumber:
		return "number"
	case KindList:
		return "list"
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Value is one config value. A string keeps its template: the text after
// escape processing but before $(VAR) interpolation ("$$" stands for "$").
// A number keeps its literal text.
type Value struct {
	kind Kind
	text string // string template or number literal
	b    bool
	list []Value
}

// String makes a string value whose resolved text is exactly s: a "$" in s
// is stored as "$$", so it is never interpolated.
func String(s string) Value {
	return Value{kind: KindString, text: strings.ReplaceAll(s, "$", "$$")}
}

// Template makes a string value from a template: "$(VAR)" is interpolated
// when loaded and "$$" stands for "$".
func Template(t string) Value { return Value{kind: KindString, text: t} }

// Bool makes a boolean value.
func Bool(b bool) Value { return Value{kind: KindBool, b: b} }

// Int makes an integer value.
func Int(n int64) Value { return Value{kind: KindNumber, text: strconv.FormatInt(n, 10)} }

// List makes a list value.
func List(vs ...Value) Value { return Value{kind: KindList, list: append([]Value(nil), vs...)} }

// Kind reports the value's kind.
func (v Value) Kind() Kind { return v.kind }

// Template returns a string value's template ("$(VAR)" and "$$" unresolved).
func (v Value) Template() string { return v.text }

// Items returns a list value's items.
func (v Value) Items() []Value { return append([]Value(nil), v.list...) }

// String gives the resolved text: strings with "$$" turned into "$" ($(VAR)
// references are left as written; Load resolves them), booleans as
// true/false, numbers in canonical form, lists as comma-separated items.
func (v Value) String() string {
	switch v.kind {
	case KindString:
		s, err := interp.Expand(v.text, func(string) (string, error) { return "", errNoLookup })
		if err != nil {
			return strings.ReplaceAll(v.text, "$$", "$")
		}
		return s
	case KindBool:
		if v.b {
			return "true"
		}
		return "false"
	case KindNumber:
		return canonicalNumber(v.text)
	case KindList:
		parts := make([]string, len(v.list))
		for i, x := range v.list {
			parts[i] = x.String()
		}
		return strings.Join(parts, ",")
	}
	return ""
}

// Equal reports whether two values are the same (same kind and text).
func (v Value) Equal(w Value) bool {
	if v.kind != w.kind || v.text != w.text || v.b != w.b || len(v.list) != len(w.list) {
		return false
	}
	for i := range v.list {
		if !v.list[i].Equal(w.list[i]) {
			return false
		}
	}
	return true
}

// Render gives the value in config-file syntax, escaped so it reads back as
// the same value and never spans more than one line.
func (v Value) Render() string {
	switch v.kind {
	case KindString:
		return quote(v.text)
	case KindBool:
		if v.b {
			return "true"
		}
		return "false"
	case KindNumber:
		return v.text
	case KindList:
		parts := make([]string, len(v.list))
		for i, x := range v.list {
			parts[i] = x.Render()
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return `""`
}

// quote renders a string template between double quotes with the escapes
// configurator-pg understands; control characters become \uXXXX.
func quote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			// Invalid UTF-8 cannot be written as text; write U+FFFD.
			b.WriteString(`\ufffd`)
			i++
			continue
		}
		i += n
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if r < 0x20 || r == 0x7f || r == 0x2028 || r == 0x2029 || r == 0x85 {
				fmt.Fprintf(&b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// canonicalNumber prints a number literal as configurator-pg's consumers
// do: integral values as integers, others as floats.
func canonicalNumber(lit string) string {
	f, err := strconv.ParseFloat(strings.TrimPrefix(lit, "+"), 64)
	if err != nil {
		return lit
	}
	if n, err := strconv.ParseInt(strings.TrimPrefix(lit, "+"), 10, 64); err == nil {
		return strconv.FormatInt(n, 10)
	}
	if f == math.Trunc(f) && math.Abs(f) < 1<<62 {
		return strconv.FormatInt(int64(f), 10)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// check refuses values that cannot be written faithfully: strings that are
// not UTF-8, top-level strings whose template does not interpolate,
// malformed numbers. Strings inside a list are not templates (Load never
// interpolates them), so a "$" there is just a character.
func (v Value) check() error { return v.checkAt(true) }

func (v Value) checkAt(top bool) error {
	switch v.kind {
	case KindString:
		if !utf8.ValidString(v.text) {
			return fmt.Errorf("string value is not valid UTF-8")
		}
		if !top {
			return nil
		}
		return interp.Check(v.text)
	case KindNumber:
		p := &parser{src: []byte(v.text)}
		if _, err := p.number(); err != nil || p.pos != len(v.text) {
			return fmt.Errorf("malformed number %q", v.text)
		}
	case KindList:
		for _, x := range v.list {
			if err := x.checkAt(false); err != nil {
				return err
			}
		}
	}
	return nil
}

// errNoLookup stops String at the first $(VAR): it resolves no variable.
var errNoLookup = errors.New("no lookup")
