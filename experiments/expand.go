package experiments

import (
	"errors"
	"fmt"

	"github.com/pgrst-lab/pgrst-lab/internal/interp"
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

// expand is interp.Expand with errors that quote s: an unset or empty
// variable, or the grammar's error worded for a file's author.
func expand(s string, lookup func(string) (string, bool)) (string, error) {
	out, err := interp.Expand(s, func(name string) (string, error) {
		if v, ok := lookup(name); ok && v != "" {
			return v, nil
		}
		return "", fmt.Errorf("%q: environment variable %s is not set", s, name)
	})
	var se *interp.SyntaxError
	if errors.As(err, &se) {
		switch se.Kind {
		case interp.Unterminated:
			return "", fmt.Errorf("%q: unterminated $(", s)
		case interp.LoneDollar:
			return "", fmt.Errorf("%q: a literal $ must be written $$ (a variable: $(NAME))", s)
		}
		return "", fmt.Errorf("%q: %w", s, err)
	}
	return out, err
}
