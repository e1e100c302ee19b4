package configs

import (
	"errors"
	"fmt"
	"strings"
)

var errNoLookup = errors.New("no lookup")

// interpolate resolves a string template: "$$" is a literal "$" and
// "$(NAME)" is replaced by lookup(NAME). A "$" followed by anything else, or
// an unterminated "$(", is an error, as in configurator-pg.
func interpolate(t string, lookup func(name string) (string, error)) (string, error) {
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
				return "", fmt.Errorf("unterminated $( in %q", t)
			}
			name := t[1:end]
			if name == "" {
				return "", fmt.Errorf("empty variable name $()")
			}
			v, err := lookup(name)
			if err != nil {
				return "", err
			}
			b.WriteString(v)
			t = t[end+1:]
		default:
			return "", fmt.Errorf("a literal $ must be written $$")
		}
	}
}

// validTemplate reports whether a string template interpolates without
// syntax errors (variables themselves are not looked up).
func validTemplate(t string) error {
	_, err := interpolate(t, func(string) (string, error) { return "", nil })
	return err
}
