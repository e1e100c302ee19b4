package experiments

import (
	"fmt"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// Expand resolves $(VAR) placeholders in the variants' binary and args with
// lookup (os.LookupEnv at run time), so that a bundled file can name
// executables it cannot know (see binaries.toml). "$$" is a literal "$",
// as in PostgREST's config syntax. PostgREST config values are left alone:
// PostgREST interpolates them itself. Every unresolved variable is reported
// (as Errors naming the variant), and e is changed only if all resolve.
func Expand(e *lab.Experiment, lookup func(string) (string, bool)) error {
	var errs Errors
	file := e.Source
	if file == "" {
		file = bundledDir + e.Name + ".toml"
	}
	variants := make([]lab.Variant, len(e.Variants))
	for i, v := range e.Variants {
		el := fmt.Sprintf("variant[%d]", i)
		bad := func(field string, err error) {
			errs = append(errs, &Error{File: file, Path: el + "." + field, Err: err})
		}
		var err error
		if v.Binary, err = expand(v.Binary, lookup); err != nil {
			bad("binary", err)
		}
		args := make([]string, len(v.Args))
		for j, a := range v.Args {
			if args[j], err = expand(a, lookup); err != nil {
				bad(fmt.Sprintf("args[%d]", j), err)
			}
		}
		v.Args = args
		if len(v.Args) == 0 {
			v.Args = nil
		}
		variants[i] = v
	}
	if len(errs) > 0 {
		return errs
	}
	e.Variants = variants
	return nil
}

func expand(s string, lookup func(string) (string, bool)) (string, error) {
	if !strings.Contains(s, "$") {
		return s, nil
	}
	var b strings.Builder
	rest := s
	for {
		i := strings.IndexByte(rest, '$')
		if i < 0 {
			b.WriteString(rest)
			return b.String(), nil
		}
		b.WriteString(rest[:i])
		rest = rest[i+1:]
		switch {
		case strings.HasPrefix(rest, "$"):
			b.WriteByte('$')
			rest = rest[1:]
		case strings.HasPrefix(rest, "("):
			end := strings.IndexByte(rest, ')')
			if end < 0 {
				return "", fmt.Errorf("%q: unterminated $(", s)
			}
			name := rest[1:end]
			v, ok := lookup(name)
			if !ok || v == "" {
				return "", fmt.Errorf("%q: environment variable %s is not set", s, name)
			}
			b.WriteString(v)
			rest = rest[end+1:]
		default:
			return "", fmt.Errorf("%q: a literal $ must be written $$ (a variable: $(NAME))", s)
		}
	}
}
