package query

import (
	"net/url"
	"testing"
)

// FuzzParse feeds arbitrary query strings to the parser: it must never
// panic, and whatever it accepts must be structurally sound (names free of
// characters that could break out of a quoted identifier or a cast).
//
//	go test ./cmd/postgrest-mini/internal/query -fuzz FuzzParse -fuzztime 30s
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"select=*&artist_id=eq.3",
		"select=*,track(*,genre(*))&artist_id=eq.127",
		"select=album_id,title,artist_id,track(*,genre(*))&artist_id=eq.1",
		"select=a:b::text,c!inner(d)&e=not.in.(1,\"2,3\")&order=a.desc.nullsfirst&limit=1&offset=2",
		"track.order=name&track.limit=3&x=is.null&y=ilike.*a*",
		"columns=a,b,c",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, qs string) {
		vals, err := url.ParseQuery(qs)
		if err != nil {
			return
		}
		var ps []Param
		for k, vs := range vals {
			for _, v := range vs {
				ps = append(ps, Param{k, v})
			}
		}
		r, err := Parse(ps, func(k string) bool { return k == "arg" })
		if err != nil {
			return
		}
		var walk func([]Item, int)
		walk = func(items []Item, depth int) {
			if depth > maxDepth+1 {
				t.Fatalf("select nested %d deep", depth)
			}
			for _, it := range items {
				if it.Kind != Star && it.Name == "" {
					t.Fatalf("empty name in %q", qs)
				}
				for _, c := range it.Cast {
					if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == ' ') {
						t.Fatalf("cast %q lets %q through", it.Cast, c)
					}
				}
				walk(it.Children, depth+1)
			}
		}
		walk(r.Select, 0)
		for _, n := range r.Nodes {
			for _, f := range n.Filters {
				if !validName(f.Column) {
					t.Fatalf("filter column %q accepted", f.Column)
				}
			}
			if n.Limit != nil && *n.Limit < 0 {
				t.Fatal("negative limit accepted")
			}
		}
	})
}
