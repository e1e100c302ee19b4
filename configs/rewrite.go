package configs

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"

	"github.com/pgrst-lab/pgrst-lab/lab/postgrest"
)

// Validate checks every key bound in the file against the catalogue
// (see ValidateSetting) and returns all problems, each naming the file and
// key.
func (f *File) Validate(allowUnknown bool) []error {
	var errs []error
	for _, k := range f.Keys() {
		v, _ := f.Get(k)
		raw := v.String()
		if v.Kind() == KindBool && isBoolKey(k) {
			raw = map[bool]string{true: "true", false: "false"}[v.b]
		}
		if err := ValidateSetting(k, raw, allowUnknown); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", f.Name, err))
		}
	}
	return errs
}

func isBoolKey(k string) bool {
	key, ok := postgrest.Lookup(k)
	return ok && key.Type == postgrest.TypeBool
}

// RewriteFile sets the given keys (raw text per key, typed by the
// catalogue) in the PostgREST config at path and writes it through the
// journal. Every key is validated first; nothing is written if any is
// refused (all problems are returned, joined). changed lists the keys
// whose value differs from before, sorted.
func RewriteFile(j *Journal, path string, set map[string]string, allowUnknown bool) (changed []string, err error) {
	f, err := ParseFile(path)
	if err != nil {
		return nil, err
	}
	var errs []error
	vals := map[string]Value{}
	for _, k := range slices.Sorted(maps.Keys(set)) {
		if err := ValidateSetting(k, set[k], allowUnknown); err != nil {
			errs = append(errs, err)
			continue
		}
		v, err := ParseValue(k, set[k])
		if err != nil {
			errs = append(errs, err)
			continue
		}
		vals[k] = v
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("rewrite %s: %w", path, errors.Join(errs...))
	}
	for k, v := range vals {
		if old, ok := f.Get(k); ok && old.String() == v.String() {
			continue
		}
		if err := f.Set(k, v); err != nil {
			return nil, fmt.Errorf("rewrite %s: %w", path, err)
		}
		changed = append(changed, k)
	}
	sort.Strings(changed)
	if len(changed) == 0 {
		return nil, nil
	}
	return changed, j.WriteFile(path, f.Bytes())
}
