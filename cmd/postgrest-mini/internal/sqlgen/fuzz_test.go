package sqlgen

import (
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/cmd/postgrest-mini/internal/query"
)

// FuzzRead parses arbitrary query strings and renders them: it must not
// panic, every parameter must be referenced, and no request text may reach
// the SQL outside quoted identifiers (the only string literals are the
// builder's own '[]').
//
//	go test ./cmd/postgrest-mini/internal/sqlgen -run '^$' -fuzz FuzzRead -fuzztime 30s
func FuzzRead(f *testing.F) {
	for _, s := range []string{
		"select=*,track(*,genre(*))&artist_id=eq.127",
		"select=t:title,track!inner(name::text)&track.name=like.*'*&order=title.desc&limit=1",
		"select=*&album_id=in.(1,'2',\"3\")&title=is.null&track.limit=2",
		"select=\"ti\"\"tle\",x:\"a'b\"",
	} {
		f.Add(s)
	}
	c, album := fixture()
	f.Fuzz(func(t *testing.T, qs string) {
		vals, err := url.ParseQuery(qs)
		if err != nil {
			return
		}
		var ps []query.Param
		for k, vs := range vals {
			for _, v := range vs {
				ps = append(ps, query.Param{Key: k, Value: v})
			}
		}
		req, err := query.Parse(ps, nil)
		if err != nil {
			return
		}
		req.ExactCount = len(qs)%2 == 0
		st, err := Read(c, album, req)
		if err != nil {
			return
		}
		for i := range st.Args {
			if !strings.Contains(st.SQL, "$"+strconv.Itoa(i+1)) {
				t.Fatalf("parameter $%d unused in %s", i+1, st.SQL)
			}
		}
		outside := stripIdentifiers(st.SQL)
		if strings.Count(outside, "'") != 2*strings.Count(outside, "'[]'") {
			t.Fatalf("a string literal that the builder did not write: %s", st.SQL)
		}
	})
}

// stripIdentifiers removes "quoted identifiers" (with "" escapes).
func stripIdentifiers(sql string) string {
	var b strings.Builder
	in := false
	for i := 0; i < len(sql); i++ {
		if sql[i] == '"' {
			if in && i+1 < len(sql) && sql[i+1] == '"' {
				i++
				continue
			}
			in = !in
			continue
		}
		if !in {
			b.WriteByte(sql[i])
		}
	}
	return b.String()
}
