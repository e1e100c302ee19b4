package profiles

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
)

// Module is the self samples of one Haskell module's functions. GHC code
// keeps no frame pointers, so perf's call chains through it are not
// reliable and its work is spread over many small functions: summed per
// module, a change shows where single functions are each below a percent.
type Module struct {
	Service   string  `json:"service"`
	Module    string  `json:"module"`
	Self      int64   `json:"self"`
	SelfShare float64 `json:"self_share"`
}

var moduleComponent = regexp.MustCompile(`^[A-Z][A-Za-z0-9_']*$`)

// ModuleOf is the module of a decoded GHC name ("PostgREST.Query.SqlFragment"
// of "PostgREST.Query.SqlFragment.$wescapeIdent"), "" for other names.
func ModuleOf(name string) string {
	parts := strings.Split(name, ".")
	n := 0
	for n < len(parts)-1 && moduleComponent.MatchString(parts[n]) {
		n++
	}
	if n == 0 {
		return ""
	}
	return strings.Join(parts[:n], ".")
}

// Modules sums the functions' self samples per Haskell module, most first.
func Modules(funcs []Func) []Module {
	by := map[string]*Module{}
	for _, f := range funcs {
		m := ModuleOf(f.Name)
		if m == "" {
			continue
		}
		k := f.Service + "\x00" + m
		if by[k] == nil {
			by[k] = &Module{Service: f.Service, Module: m}
		}
		by[k].Self += f.Self
		by[k].SelfShare += f.SelfShare
	}
	out := make([]Module, 0, len(by))
	for _, m := range by {
		if m.Self > 0 {
			out = append(out, *m)
		}
	}
	slices.SortFunc(out, func(a, b Module) int {
		if c := cmp.Compare(b.Self, a.Self); c != 0 {
			return c
		}
		return cmp.Compare(a.Module, b.Module)
	})
	return out
}
