package postgrest

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// VersionError is a key the target's PostgREST version does not have:
// one that came later, or one removed before it (with the key that
// replaced it, when one did).
type VersionError struct {
	Key         string
	Version     string // the target's
	Since       string // the first version with the key
	Removed     string // the first version without it ("" if still present)
	Replacement string
}

func (e *VersionError) Error() string {
	if e.Removed != "" && compareVersions(e.Version, e.Removed) >= 0 {
		msg := fmt.Sprintf("%s was removed in %s", e.Key, e.Removed)
		if e.Replacement != "" {
			msg += ": use " + e.Replacement
		}
		return msg + fmt.Sprintf(" (the target is PostgREST %s)", e.Version)
	}
	return fmt.Sprintf("%s came in PostgREST %s (the target is PostgREST %s)", e.Key, e.Since, e.Version)
}

// CheckIn reports whether PostgREST version v has key: nil when it does,
// when v is unknown (""), and for a key the table lacks (whether that is
// allowed is the catalogue check's decision); a *VersionError otherwise.
// An alias is checked as its own row (its versions are the old name's).
func CheckIn(key, v string) error {
	if v == "" {
		return nil
	}
	k, ok := Lookup(key)
	if !ok || k.In(v) {
		return nil
	}
	return &VersionError{Key: key, Version: v, Since: k.Since, Removed: k.Removed, Replacement: k.Replacement}
}

// Range is the PostgREST versions a set of keys suits: From (inclusive)
// up to Before (exclusive; "" for no upper bound). Empty when no version
// has all of them.
type Range struct {
	From, Before string
	Empty        bool
	Why          []string // the keys that bound it: "jwt-cache-max-lifetime (removed in 14.0)"
}

// Suits is the range of versions that have every key of keys (unknown
// keys and app.settings.* do not narrow it).
func Suits(keys []string) Range {
	r := Range{From: "0"}
	var from, before []Key
	for _, name := range keys {
		k, ok := Lookup(name)
		if !ok {
			continue
		}
		k.Name = name
		if c := compareVersions(k.Since, r.From); c > 0 {
			r.From, from = k.Since, []Key{k}
		} else if c == 0 && r.From != "0" {
			from = append(from, k)
		}
		if k.Removed != "" {
			if r.Before == "" || compareVersions(k.Removed, r.Before) < 0 {
				r.Before, before = k.Removed, []Key{k}
			} else if k.Removed == r.Before {
				before = append(before, k)
			}
		}
	}
	why := map[string]string{}
	for _, k := range from {
		why[k.Name] = "since " + k.Since
	}
	for _, k := range before {
		w := "removed in " + k.Removed
		if k.Replacement != "" {
			w += ": use " + k.Replacement
		}
		why[k.Name] = strings.TrimPrefix(why[k.Name]+", "+w, ", ")
	}
	for _, name := range slices.Sorted(maps.Keys(why)) {
		r.Why = append(r.Why, name+" ("+why[name]+")")
	}
	r.Empty = r.Before != "" && compareVersions(r.From, r.Before) >= 0
	return r
}

// Has reports whether version v is in the range.
func (r Range) Has(v string) bool {
	return !r.Empty && compareVersions(r.From, v) <= 0 && (r.Before == "" || compareVersions(v, r.Before) < 0)
}

// String says the range in words: "every version", "14.0 and later",
// "before 14.0", "12.0 up to 14.0 (not 14.0)", "no version".
func (r Range) String() string {
	from := r.From
	if from == "0" || from == "" {
		from = ""
	}
	switch {
	case r.Empty:
		return "no version"
	case from == "" && r.Before == "":
		return "every version"
	case r.Before == "":
		return "PostgREST " + from + " and later"
	case from == "":
		return "PostgREST before " + r.Before
	}
	return fmt.Sprintf("PostgREST %s up to %s (not %s)", from, r.Before, r.Before)
}

// Supported lists the release lines the lab knows and tests: PostgREST's
// supported majors (odd majors are development only), with the real
// binaries' versions the tests run where there are some.
var Supported = []string{"13.0.8", "14.0", "14.17", "16.2"}

// SupportedIn lists the versions of Supported the range holds.
func (r Range) SupportedIn() []string {
	var out []string
	for _, v := range Supported {
		if r.Has(v) {
			out = append(out, v)
		}
	}
	return out
}

// VersionOf reads the version from a target's `--version` line:
// "PostgREST 14.17" or "PostgREST 13.0.8 (a1b2c3d)" → "14.17", "13.0.8";
// "" for anything else (postgrest-mini, a wrapper that prints nothing):
// the checks by version then pass.
func VersionOf(line string) string {
	rest, ok := strings.CutPrefix(strings.TrimSpace(line), "PostgREST ")
	if !ok {
		return ""
	}
	f := strings.Fields(rest)
	if len(f) == 0 {
		return ""
	}
	v := strings.TrimPrefix(f[0], "v")
	if v == "" || !strings.ContainsAny(v[:1], "0123456789") {
		return ""
	}
	return v
}
