package schema

import (
	"reflect"
	"testing"
)

func TestInputParams(t *testing.T) {
	// f(a int, OUT x int, b text DEFAULT 'q', INOUT c int)
	got := inputParams([]string{"a", "x", "b", "c"}, []string{"i", "o", "i", "b"}, []string{"integer", "text", "integer"}, 1)
	want := []Param{{Name: "a", Type: "integer"}, {Name: "b", Type: "text"}, {Name: "c", Type: "integer", HasDefault: true}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	// add_them(a..e int): no modes
	got = inputParams([]string{"a", "b"}, nil, []string{"integer", "integer"}, 0)
	if len(got) != 2 || got[1].Name != "b" || got[1].HasDefault {
		t.Errorf("no modes: %+v", got)
	}
}

func TestRelationships(t *testing.T) {
	a := &Table{Schema: "public", Name: "album"}
	tr := &Table{Schema: "public", Name: "track"}
	e := &Table{Schema: "public", Name: "employee"}
	c := New([]string{"public"}, []*Table{a, tr, e}, []FK{
		{Name: "fk_track_album", Schema: "public", Table: "track", Columns: []string{"album_id"}, RefSchema: "public", RefTable: "album", RefColumns: []string{"album_id"}},
		{Name: "fk_boss", Schema: "public", Table: "employee", Columns: []string{"reports_to"}, RefSchema: "public", RefTable: "employee", RefColumns: []string{"employee_id"}},
	}, nil)
	if r := c.Relationships(a, "track", ""); len(r) != 1 || r[0].Card != OneToMany || r[0].TargetCols[0] != "album_id" {
		t.Errorf("album->track: %+v", r)
	}
	if r := c.Relationships(tr, "album", ""); len(r) != 1 || r[0].Card != ManyToOne {
		t.Errorf("track->album: %+v", r)
	}
	if r := c.Relationships(e, "employee", ""); len(r) != 2 {
		t.Errorf("self reference: %d relationships, want 2 (ambiguous)", len(r))
	}
	if r := c.Relationships(a, "track", "nope"); len(r) != 0 {
		t.Errorf("hint filtered nothing: %+v", r)
	}
}
