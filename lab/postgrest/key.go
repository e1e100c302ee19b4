package postgrest

import (
	"sort"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/internal/didyoumean"
)

// Type is the type PostgREST gives a config key's value.
type Type string

// Config value types.
const (
	TypeString Type = "string"
	TypeInt    Type = "int"
	TypeBool   Type = "bool"
	TypeEnum   Type = "enum" // one of Key.Values
	TypeOctal  Type = "octal"
	TypeList   Type = "list" // comma-separated string
)

// Key describes one PostgREST config key: one row of the table.
type Key struct {
	Name       string
	Type       Type
	Default    string   // "" when unset by default
	DefaultOf  string   // the key whose value is the default, when not a constant (Default is then "")
	Values     []string // allowed values of an enum
	Since      string   // first PostgREST version with this key
	Removed    string   // first version without it ("" if still present)
	AliasOf    string   // the current name, for an old alias
	Reloadable bool     // applied by a config reload (SIGUSR2 / NOTIFY pgrst)
	Shown      Shown    // how much of its value the lab shows (Hidden unless the row says)
	Class      Class    // who may change it in a variant
	Why        string   // why, for a class other than Tune
	Doc        string
	// Replacement is the key that took a removed key's place, if any.
	Replacement string
	// Source is where the row's facts were read: the release tags whose
	// Config.hs and CHANGELOG say so (and the binaries that confirm it).
	Source string
	// Eras are the changes of type, default, values or reloadability in
	// later versions, oldest first: At applies those of a version.
	Eras []Era
}

// Era is how a key is from a version on (Since), where it differs from
// the versions before: the whole of its type, default, allowed values and
// reloadability, with where that was read.
type Era struct {
	Since      string
	Type       Type
	Default    string
	Values     []string
	Reloadable bool
	Doc        string // "" keeps the key's
	Source     string
}

// At is the key as PostgREST version v has it: the row with the eras of v
// and earlier applied. An unknown version ("") is the row as first
// written; Forms lists every form a version-free check must accept.
func (k Key) At(v string) Key {
	if v == "" {
		return k
	}
	for _, e := range k.Eras {
		if compareVersions(e.Since, v) <= 0 {
			k = k.with(e)
		}
	}
	return k
}

func (k Key) with(e Era) Key {
	k.Type, k.Default, k.Values, k.Reloadable = e.Type, e.Default, e.Values, e.Reloadable
	if e.Doc != "" {
		k.Doc = e.Doc
	}
	if e.Source != "" {
		k.Source = e.Source
	}
	return k
}

// Forms lists the key as every version has it, newest first: a check that
// does not know the version accepts a value any of them accepts.
func (k Key) Forms() []Key {
	out := []Key{k}
	cur := k
	for _, e := range k.Eras {
		cur = cur.with(e)
		out = append([]Key{cur}, out...)
	}
	return out
}

// EnvName is the environment variable PostgREST reads for the key.
func (k Key) EnvName() string { return EnvVar(k.Name) }

// In reports whether the key exists in PostgREST version v ("13.0.8"):
// Since <= v < Removed.
func (k Key) In(v string) bool {
	return compareVersions(k.Since, v) <= 0 && (k.Removed == "" || compareVersions(v, k.Removed) < 0)
}

// AppSettingsRow is the row that stands for every app.settings.x key; as
// an allow-list entry it names them all (Covers).
const AppSettingsRow = "app.settings.*"

// isAppSetting reports an app.settings.x key (x not empty).
func isAppSetting(key string) bool {
	return strings.HasPrefix(key, "app.settings.") && len(key) > len("app.settings.")
}

var byName = func() map[string]Key {
	m := map[string]Key{}
	for _, k := range keys {
		m[k.Name] = k
	}
	return m
}()

// Lookup finds a key in the table. Keys under app.settings. match the
// "app.settings.*" row.
func Lookup(key string) (Key, bool) {
	if k, ok := byName[key]; ok {
		return k, true
	}
	if isAppSetting(key) {
		k := byName[AppSettingsRow]
		k.Name = key
		return k, true
	}
	return Key{}, false
}

// Covers reports whether an allow-list entry names key: the same name, or
// the table's "app.settings.*" row for any app.settings.x key (the one
// pattern an entry may be; keys are otherwise listed by name).
func Covers(entry, key string) bool {
	if entry == key {
		return true
	}
	return entry == AppSettingsRow && isAppSetting(key)
}

// Keys lists every row of the table, sorted by name.
func Keys() []Key {
	out := append([]Key(nil), keys...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// AliasesOf lists the old names of key, in the table's order.
func AliasesOf(key string) []string {
	var out []string
	for _, k := range keys {
		if k.AliasOf == key {
			out = append(out, k.Name)
		}
	}
	return out
}

// Closest returns the known key nearest to key (edit distance), or "" if
// none is reasonably close.
func Closest(key string) string {
	var names []string
	for _, k := range keys {
		if !strings.HasSuffix(k.Name, "*") {
			names = append(names, k.Name)
		}
	}
	return didyoumean.Suggest(key, names)
}
