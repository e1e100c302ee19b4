package experiments

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// problem is an error at a path, before it is given a file and line.
// at is where it is written (for the line); shown is the path printed.
type problem struct {
	at, shown []string
	err       error
}

// checker compares the document TOML decoded (maps, slices and scalars)
// with the Go type it will be decoded into, and reports every unknown key
// and wrong type at once; the TOML decoder would stop at the first.
type checker struct {
	probs   []problem
	removed [][]string // keys deleted from the document because of a problem
}

var (
	durationType = reflect.TypeOf(time.Duration(0))
	scalarType   = reflect.TypeOf(scalar(""))
)

func (c *checker) add(at, shown []string, format string, args ...any) {
	c.probs = append(c.probs, problem{at: clone(at), shown: clone(shown), err: fmt.Errorf(format, args...)})
}

func clone(p []string) []string { return append([]string(nil), p...) }

func child(path []string, seg string) []string { return append(clone(path), seg) }

func index(path []string, i int) []string {
	p := clone(path)
	p[len(p)-1] += "[" + strconv.Itoa(i) + "]"
	return p
}

// tomlFields lists a struct's fields by their TOML names.
func tomlFields(t reflect.Type) map[string]reflect.StructField {
	out := map[string]reflect.StructField{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct { // promoted, as the decoder does
			maps.Copy(out, tomlFields(f.Type))
			continue
		}
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f
	}
	return out
}

// table checks a table against struct type t. Keys with problems are
// deleted from the table, so that the rest can still be decoded and
// validated; their paths are kept in removed.
func (c *checker) table(path []string, v any, t reflect.Type) bool {
	m, ok := v.(map[string]any)
	if !ok {
		if _, aot := v.([]map[string]any); aot && len(path) > 0 {
			c.add(path, path, "must be a table ([%s]), not an array of tables ([[%[1]s]])", lab.FormatPath(path))
		} else {
			c.add(path, path, "must be a table, not %s", describe(v))
		}
		return false
	}
	fields := tomlFields(t)
	names := make([]string, 0, len(fields))
	for n := range fields {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, k := range slices.Sorted(maps.Keys(m)) {
		f, ok := fields[k]
		if !ok {
			c.probs = append(c.probs, problem{at: child(path, k), shown: clone(path),
				err: &UnknownKey{Key: k, Suggest: lab.Suggest(k, names)}})
			c.remove(m, path, k)
			continue
		}
		if !c.value(child(path, k), m[k], f.Type) {
			c.remove(m, path, k)
		}
	}
	return true
}

func (c *checker) remove(m map[string]any, path []string, k string) {
	delete(m, k)
	c.removed = append(c.removed, child(path, k))
}

// value checks v against Go type t; false means v cannot be decoded at all
// (the caller removes it).
func (c *checker) value(path []string, v any, t reflect.Type) bool {
	if t == durationType {
		s, ok := v.(string)
		if !ok {
			hint := ""
			if _, isInt := v.(int64); isInt {
				hint = " (a bare number would be nanoseconds)"
			}
			c.add(path, path, "must be a duration string like \"10s\" or \"500ms\", not %s%s", describe(v), hint)
			return false
		}
		if _, err := time.ParseDuration(s); err != nil {
			c.add(path, path, "%q is not a duration (use a number with a unit: ns, us, ms, s, m, h; e.g. \"10s\")", s)
			return false
		}
		return true
	}
	if t == scalarType {
		if _, err := scalarText(v); err != nil {
			c.add(path, path, "%v", err)
			return false
		}
		return true
	}
	switch t.Kind() {
	case reflect.String:
		return c.scalar(path, v, "a string", func(v any) bool { _, ok := v.(string); return ok })
	case reflect.Bool:
		return c.scalar(path, v, "true or false", func(v any) bool { _, ok := v.(bool); return ok })
	case reflect.Int, reflect.Int64:
		return c.scalar(path, v, "an integer", func(v any) bool { _, ok := v.(int64); return ok })
	case reflect.Float64:
		return c.scalar(path, v, "a number", func(v any) bool {
			switch v.(type) {
			case int64, float64:
				return true
			}
			return false
		})
	case reflect.Struct:
		return c.table(path, v, t)
	case reflect.Pointer: // optional scalar, e.g. trials.sequential
		return c.value(path, v, t.Elem())
	case reflect.Map: // map[string]string: a table of scalars, kept as text
		m, ok := v.(map[string]any)
		if !ok {
			c.add(path, path, "must be a table of key = value, not %s", describe(v))
			return false
		}
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if _, err := scalarText(m[k]); err != nil {
				c.add(child(path, k), child(path, k), "%v", err)
				c.remove(m, path, k)
			}
		}
		return true
	case reflect.Slice:
		var elems []any
		switch s := v.(type) {
		case []any:
			elems = s
		case []map[string]any:
			for _, m := range s {
				elems = append(elems, m)
			}
		default:
			want := "an array"
			if t.Elem().Kind() == reflect.Struct {
				want = "an array of tables ([[" + path[len(path)-1] + "]])"
			}
			c.add(path, path, "must be %s, not %s", want, describe(v))
			return false
		}
		ok := true
		for i, e := range elems {
			ok = c.value(index(path, i), e, t.Elem()) && ok
		}
		return ok
	}
	c.add(path, path, "cannot be decoded (unsupported Go type %s)", t)
	return false
}

func (c *checker) scalar(path []string, v any, want string, ok func(any) bool) bool {
	if !ok(v) {
		c.add(path, path, "must be %s, not %s", want, describe(v))
		return false
	}
	return true
}

// describe names a decoded TOML value's type, with the value if short.
func describe(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("string %q", x)
	case int64:
		return fmt.Sprintf("integer %d", x)
	case float64:
		return fmt.Sprintf("float %v", x)
	case bool:
		return fmt.Sprintf("boolean %v", x)
	case time.Time:
		return "a date-time"
	case []any, []map[string]any:
		return "an array"
	case map[string]any:
		return "a table"
	}
	return fmt.Sprintf("%T", v)
}

var errNotScalar = errors.New("must be a string, number or boolean")

// scalarText renders a scalar as the text a config file or environment
// would hold: strings as they are, numbers and booleans as TOML writes them.
func scalarText(v any) (string, error) {
	t, err := tomlText(v)
	if err != nil {
		return "", fmt.Errorf("%w, not %s", errNotScalar, describe(v))
	}
	return t, nil
}
