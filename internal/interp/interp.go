package interp

import (
	"strconv"
	"strings"
)

// Kind is what is wrong with a template's syntax.
type Kind int

const (
	// Unterminated is a "$(" without its ")".
	Unterminated Kind = iota
	// EmptyName is "$()".
	EmptyName
	// LoneDollar is a "$" followed by neither "$" nor "(".
	LoneDollar
)

// SyntaxError is a template Expand cannot read. Rest is the text after the
// offending "$".
type SyntaxError struct {
	Kind Kind
	Rest string
}

func (e *SyntaxError) Error() string {
	switch e.Kind {
	case Unterminated:
		return "unterminated $( in " + strconv.Quote(e.Rest)
	case EmptyName:
		return "empty variable name $()"
	}
	return "a literal $ must be written $$"
}

// Expand resolves the template t: "$$" is a literal "$" and "$(NAME)" is
// replaced by lookup(NAME), whose error is returned as it is. A syntax
// error is a *SyntaxError.
func Expand(t string, lookup func(name string) (string, error)) (string, error) {
	if !strings.Contains(t, "$") {
		return t, nil
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(t, '$')
		if i < 0 {
			b.WriteString(t)
			return b.String(), nil
		}
		b.WriteString(t[:i])
		t = t[i+1:]
		switch {
		case strings.HasPrefix(t, "$"):
			b.WriteByte('$')
			t = t[1:]
		case strings.HasPrefix(t, "("):
			end := strings.IndexByte(t, ')')
			if end < 0 {
				return "", &SyntaxError{Kind: Unterminated, Rest: t}
			}
			name := t[1:end]
			if name == "" {
				return "", &SyntaxError{Kind: EmptyName, Rest: t}
			}
			v, err := lookup(name)
			if err != nil {
				return "", err
			}
			b.WriteString(v)
			t = t[end+1:]
		default:
			return "", &SyntaxError{Kind: LoneDollar, Rest: t}
		}
	}
}

// Check reports a syntax error of t, looking no variable up.
func Check(t string) error {
	_, err := Expand(t, func(string) (string, error) { return "", nil })
	return err
}
