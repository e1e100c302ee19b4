package layers

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// A Violation is one import the rooms do not allow, or a package no room
// claims.
type Violation struct {
	From, To string // module-relative package paths; To is empty for an unplaced package
	Why      string
}

func (v Violation) String() string {
	if v.To == "" {
		return v.From + ": " + v.Why
	}
	return v.From + " → " + v.To + ": " + v.Why
}

// Check holds an import graph (module-relative package → the
// module-relative packages it imports) to the rooms. Paths outside the
// module must be left out by the caller.
func Check(rooms []Room, graph map[string][]string) []Violation {
	var out []Violation
	pkgs := make([]string, 0, len(graph))
	for p := range graph {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for _, from := range pkgs {
		fr, fpat, ok := Locate(rooms, from)
		if !ok {
			out = append(out, Violation{From: from, Why: "no room claims this package (add it to internal/layers.Rooms and docs/architecture.md)"})
			continue
		}
		for _, to := range graph[from] {
			tr, tpat, ok := Locate(rooms, to)
			if !ok {
				continue // reported as its own package
			}
			switch {
			case tr.Name == fr.Name && fr.Alone && fpat != tpat:
				out = append(out, Violation{From: from, To: to,
					Why: fmt.Sprintf("%s and %s are separate %s: they may not import each other", strings.TrimSuffix(fpat, "/..."), strings.TrimSuffix(tpat, "/..."), fr.Name)})
			case tr.Name == fr.Name:
			case !slices.Contains(fr.MayImport, tr.Name):
				out = append(out, Violation{From: from, To: to,
					Why: fmt.Sprintf("room %q may not import room %q (it may import %s)", fr.Name, tr.Name, allowed(fr))})
			}
		}
	}
	return out
}

func allowed(r *Room) string {
	if len(r.MayImport) == 0 {
		return "only its own packages"
	}
	return strings.Join(r.MayImport, ", ")
}
