package query

import (
	"reflect"
	"testing"
)

func TestParseSelect(t *testing.T) {
	got, err := ParseSelect(`*,t:track!fk_track_album(name,g:genre!inner(*)),n:name::text,"odd col"`)
	if err != nil {
		t.Fatal(err)
	}
	want := []Item{
		{Kind: Star},
		{Kind: Embed, Name: "track", Alias: "t", Hint: "fk_track_album", Children: []Item{
			{Kind: Column, Name: "name"},
			{Kind: Embed, Name: "genre", Alias: "g", Inner: true, Children: []Item{{Kind: Star}}},
		}},
		{Kind: Column, Name: "name", Alias: "n", Cast: "text"},
		{Kind: Column, Name: "odd col"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}

func TestParseSelectErrors(t *testing.T) {
	for _, s := range []string{"", ",", "a,", "a(", "a(b", "a)", "a::", "a::1x", "a::int;drop", `"`, `""`, "a!h", "a->b", "\xff"} {
		if _, err := ParseSelect(s); err == nil {
			t.Errorf("ParseSelect(%q): no error", s)
		}
	}
}

func TestParseFilter(t *testing.T) {
	cases := []struct {
		v    string
		want Filter
	}{
		{"eq.3", Filter{Column: "c", Op: Eq, Value: "3"}},
		{"not.like.*a*b", Filter{Column: "c", Not: true, Op: Like, Value: "%a%b"}},
		{`in.(1, 2,"x,y","q\"q")`, Filter{Column: "c", Op: In, List: []string{"1", "2", "x,y", `q"q`}}},
		{"in.()", Filter{Column: "c", Op: In, List: []string{}}},
		{"is.NULL", Filter{Column: "c", Op: Is, IsVal: "null"}},
		{"eq.a.b", Filter{Column: "c", Op: Eq, Value: "a.b"}},
	}
	for _, c := range cases {
		got, err := ParseFilter("c", c.v)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseFilter(%q) = %+v, %v; want %+v", c.v, got, err, c.want)
		}
	}
	for _, v := range []string{"3", "xx.3", "in.1", `in.("a`, "is.maybe", "not.", "eq"} {
		if _, err := ParseFilter("c", v); err == nil {
			t.Errorf("ParseFilter(%q): no error", v)
		}
	}
}

func TestParse(t *testing.T) {
	r, err := Parse([]Param{{"select", "*,track(*)"}, {"artist_id", "eq.3"}, {"track.name", "like.A*"},
		{"track.order", "name.desc.nullslast"}, {"limit", "5"}, {"a", "1"}}, func(k string) bool { return k == "a" })
	if err != nil {
		t.Fatal(err)
	}
	if r.Args["a"] != "1" || len(r.Node("").Filters) != 1 || *r.Node("").Limit != 5 {
		t.Errorf("root: %+v args %v", r.Node(""), r.Args)
	}
	tr := r.Node("track")
	if tr == nil || tr.Filters[0].Value != "A%" || !tr.Order[0].Desc || tr.Order[0].Nulls != "last" {
		t.Errorf("track node: %+v", tr)
	}
}

// db-max-rows bounds the top level's rows; a smaller limit asked for stays,
// an embed's is left alone.
func TestCapRows(t *testing.T) {
	for _, c := range []struct {
		params []Param
		want   int64
	}{{nil, 5}, {[]Param{{"limit", "3"}}, 3}, {[]Param{{"limit", "50"}, {"track.limit", "9"}}, 5}} {
		r, err := Parse(c.params, nil)
		if err != nil {
			t.Fatal(err)
		}
		r.CapRows(5)
		if got := r.Node(""); got == nil || got.Limit == nil || *got.Limit != c.want {
			t.Errorf("%v capped at 5: root %+v, want limit %d", c.params, got, c.want)
		}
		if n := r.Node("track"); n != nil && *n.Limit != 9 {
			t.Errorf("%v: the embed's limit changed to %d", c.params, *n.Limit)
		}
	}
}
