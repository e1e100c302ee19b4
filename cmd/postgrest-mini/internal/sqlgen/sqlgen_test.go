package sqlgen

import (
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/cmd/postgrest-mini/internal/query"
	"github.com/pgrst-lab/pgrst-lab/cmd/postgrest-mini/internal/schema"
)

func fixture() (*schema.Cache, *schema.Table) {
	cols := func(names ...string) []schema.Column {
		var cs []schema.Column
		for _, n := range names {
			cs = append(cs, schema.Column{Name: n, Type: "integer"})
		}
		return cs
	}
	album := &schema.Table{Schema: "public", Name: "album", Columns: cols("album_id", "title", "artist_id")}
	track := &schema.Table{Schema: "public", Name: "track", Columns: cols("track_id", "album_id", "genre_id")}
	genre := &schema.Table{Schema: "public", Name: "genre", Columns: cols("genre_id", "name")}
	c := schema.New([]string{"public"}, []*schema.Table{album, track, genre}, []schema.FK{
		{Name: "fk_track_album", Schema: "public", Table: "track", Columns: []string{"album_id"}, RefSchema: "public", RefTable: "album", RefColumns: []string{"album_id"}},
		{Name: "fk_track_genre", Schema: "public", Table: "track", Columns: []string{"genre_id"}, RefSchema: "public", RefTable: "genre", RefColumns: []string{"genre_id"}},
	}, nil)
	return c, album
}

func TestReadEmbed(t *testing.T) {
	c, album := fixture()
	req, err := query.Parse([]query.Param{{Key: "select", Value: "*,track(*,genre(*))"}, {Key: "artist_id", Value: "eq.127'; drop table x;--"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	st, err := Read(c, album, req)
	if err != nil {
		t.Fatal(err)
	}
	want := `SELECT pg_catalog.count(*)::int8, NULL::int8, coalesce(pg_catalog.json_agg(_pgrst_t), '[]')::text FROM (` +
		`SELECT "album".*, COALESCE((SELECT json_agg(_pgrst_e) FROM (SELECT "track_1".*, (SELECT row_to_json(_pgrst_e) FROM (` +
		`SELECT "genre_2".* FROM "public"."genre" AS "genre_2" WHERE "genre_2"."genre_id" = "track_1"."genre_id") _pgrst_e) AS "genre" ` +
		`FROM "public"."track" AS "track_1" WHERE "track_1"."album_id" = "album"."album_id") _pgrst_e), '[]') AS "track" ` +
		`FROM "public"."album" AS "album" WHERE "album"."artist_id" = $1) _pgrst_t`
	if st.SQL != want {
		t.Errorf("SQL:\n%s\nwant:\n%s", st.SQL, want)
	}
	if len(st.Args) != 1 || st.Args[0] != "127'; drop table x;--" || strings.Contains(st.SQL, "drop") {
		t.Errorf("value not passed as a parameter: %v", st.Args)
	}
}

func TestEmbedErrors(t *testing.T) {
	c, album := fixture()
	for sel, code := range map[string]string{"*,nope(*)": "PGRST200", "*,track!nope(*)": "PGRST200"} {
		req, _ := query.Parse([]query.Param{{Key: "select", Value: sel}}, nil)
		_, err := Read(c, album, req)
		if err == nil || !strings.Contains(err.Error(), code) {
			t.Errorf("%s: %v, want %s", sel, err, code)
		}
	}
}

func TestInsertQuotesColumns(t *testing.T) {
	c, album := fixture()
	st, err := Insert(c, album, []string{`ti"tle`}, `[{}]`, false, &query.Request{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(st.SQL, `("ti""tle")`) || st.Args[0] != `[{}]` {
		t.Errorf("insert: %s %v", st.SQL, st.Args)
	}
}
