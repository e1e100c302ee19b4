package server

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
)

// TestEmbeds covers the embedding features beyond the scenarios: aliases,
// casts, hints, filters/order/limit inside embeds, !inner, many-to-many
// through a junction table, and in/is/like/not filters, each compared with
// hand-written SQL over Chinook.
func TestEmbeds(t *testing.T) {
	db := labtest.Chinook(t)
	conn := superConn(t, db)
	ts := start(t, db.TCPURI("authenticator"), nil)
	cases := []struct{ path, sql string }{
		{"/artist?select=id:artist_id,name::text&artist_id=in.(1,2,%223%22)&order=artist_id.desc",
			`SELECT json_agg(json_build_object('id', artist_id, 'name', name) ORDER BY artist_id DESC) FROM artist WHERE artist_id IN (1,2,3)`},
		{"/album?select=title,artist!fk_album_artist_id(name)&album_id=lte.3",
			`SELECT json_agg(json_build_object('title', al.title, 'artist', json_build_object('name', ar.name))) FROM album al JOIN artist ar USING (artist_id) WHERE album_id <= 3`},
		{"/album?select=title,track(name)&album_id=eq.1&track.order=name.desc&track.limit=2&track.name=like.*i*",
			`SELECT json_agg(json_build_object('title', title, 'track', (SELECT json_agg(json_build_object('name', name)) FROM
			   (SELECT name FROM track WHERE album_id = 1 AND name LIKE '%i%' ORDER BY name DESC LIMIT 2) x))) FROM album WHERE album_id = 1`},
		{"/artist?select=name,album!inner(title)&name=like.A*&album.title=ilike.*rock*",
			`SELECT json_agg(json_build_object('name', ar.name, 'album', (SELECT json_agg(json_build_object('title', title)) FROM album al
			   WHERE al.artist_id = ar.artist_id AND title ILIKE '%rock%'))) FROM artist ar WHERE name LIKE 'A%'
			   AND EXISTS (SELECT 1 FROM album al WHERE al.artist_id = ar.artist_id AND title ILIKE '%rock%')`},
		{"/playlist?select=name,track(name)&playlist_id=eq.18",
			`SELECT json_agg(json_build_object('name', p.name, 'track', (SELECT coalesce(json_agg(json_build_object('name', t.name)), '[]') FROM playlist_track pt
			   JOIN track t USING (track_id) WHERE pt.playlist_id = p.playlist_id))) FROM playlist p WHERE playlist_id = 18`},
		{"/track?select=track_id,composer&composer=is.null&track_id=lt.10&track_id=not.eq.2",
			`SELECT coalesce(json_agg(json_build_object('track_id', track_id, 'composer', composer)), '[]') FROM track WHERE composer IS NULL AND track_id < 10 AND track_id <> 2`},
		{"/employee?select=last_name&title=not.in.(General%20Manager,IT%20Staff)&order=last_name&limit=2&offset=1",
			`SELECT json_agg(json_build_object('last_name', last_name)) FROM (SELECT last_name FROM employee WHERE title NOT IN ('General Manager','IT Staff') ORDER BY last_name LIMIT 2 OFFSET 1) x`},
		{"/rpc/ret_albums?select=title,artist(name)&album_id=eq.5",
			`SELECT json_agg(json_build_object('title', al.title, 'artist', json_build_object('name', ar.name))) FROM album al JOIN artist ar USING (artist_id) WHERE album_id = 5`},
	}
	ids := make([]string, 3000)
	for i := range ids {
		ids[i] = strconv.Itoa(i + 1)
	}
	st, b := ts.get(t, "/track?select=track_id&track_id=in.("+strings.Join(ids, ",")+")")
	if n := strings.Count(string(b), "track_id"); st != 200 || n != 3000 {
		t.Errorf("in.() with 3000 ids (a 14 KB URL): %d, %d rows", st, n)
	}
	st, b = ts.get(t, "/track?not.track_id=eq.2")
	wantErr(t, "filter on a resource that is not embedded", st, b, 400, "PGRST108")
	for _, c := range cases {
		st, b := ts.get(t, c.path)
		if st != 200 {
			t.Errorf("%s: %d %s", c.path, st, b)
			continue
		}
		jsonEqual(t, c.path, b, sqlJSON(t, conn, "SELECT coalesce(("+c.sql+"), '[]')"))
	}
}

// TestOneToOne: a foreign key that is also unique embeds as an object in
// both directions.
func TestOneToOne(t *testing.T) {
	db := labtest.Chinook(t)
	must(t, db.Psql(db.Name, `CREATE TABLE artist_bio (artist_id int PRIMARY KEY REFERENCES artist, bio text);
		INSERT INTO artist_bio VALUES (1, 'Australian rock'); GRANT SELECT ON artist_bio TO web_anon`))
	ts := start(t, db.TCPURI("authenticator"), nil)
	st, b := ts.get(t, "/artist?select=name,artist_bio(bio)&artist_id=in.(1,2)&order=artist_id")
	if st != 200 {
		t.Fatalf("%d %s", st, b)
	}
	conn := superConn(t, db)
	name1, name2 := quoted(t, conn, "SELECT name FROM artist WHERE artist_id = 1"), quoted(t, conn, "SELECT name FROM artist WHERE artist_id = 2")
	jsonEqual(t, "one-to-one", b, []byte(`[{"name":`+name1+`,"artist_bio":{"bio":"Australian rock"}},{"name":`+name2+`,"artist_bio":null}]`))
	st, b = ts.get(t, "/artist_bio?select=bio,artist(name)")
	if st != 200 {
		t.Fatalf("%d %s", st, b)
	}
	jsonEqual(t, "one-to-one reverse", b, []byte(`[{"bio":"Australian rock","artist":{"name":`+name1+`}}]`))
}

// TestSingular: Accept: application/vnd.pgrst.object+json gives the object
// for exactly one row and 406 PGRST116 otherwise.
func TestSingular(t *testing.T) {
	db := labtest.Chinook(t)
	ts := start(t, db.TCPURI("authenticator"), nil)
	name3 := quoted(t, superConn(t, db), "SELECT name FROM artist WHERE artist_id = 3")
	st, b, h := ts.do(t, "GET", "/artist?artist_id=eq.3", nil, "Accept", "application/vnd.pgrst.object+json")
	if st != 200 || string(b) != `{"artist_id":3,"name":`+name3+`}` || !strings.HasPrefix(string(h.ContentType()), "application/vnd.pgrst.object+json") {
		t.Errorf("one row: %d %s (%s)", st, b, h.ContentType())
	}
	st, b, _ = ts.do(t, "GET", "/artist?artist_id=lt.3", nil, "Accept", "application/vnd.pgrst.object+json")
	wantErr(t, "two rows", st, b, 406, "PGRST116")
	st, b, _ = ts.do(t, "GET", "/rpc/ret_artists?artist_id=eq.999", nil, "Accept", "application/vnd.pgrst.object+json")
	wantErr(t, "no rows from a function", st, b, 406, "PGRST116")
}

// TestExactCount: Prefer: count=exact gives the total in Content-Range and
// 206 when only part of it is returned.
func TestExactCount(t *testing.T) {
	db := labtest.Chinook(t)
	ts := start(t, db.TCPURI("authenticator"), nil)
	var n int // album 1's tracks: the data is generated, so ask
	must(t, superConn(t, db).QueryRow(context.Background(), "SELECT count(*) FROM track WHERE album_id = 1").Scan(&n))
	if n < 5 {
		t.Fatalf("album 1 has %d tracks; the cases need at least 5", n)
	}
	cases := []struct {
		path, rng string
		status    int
	}{
		{"/track?select=track_id&album_id=eq.1&limit=3&offset=2&order=track_id", fmt.Sprintf("2-4/%d", n), 206},
		{"/track?select=track_id,genre(name)&album_id=eq.1", fmt.Sprintf("0-%d/%d", n-1, n), 200},
		{"/track?album_id=eq.0", "*/0", 200},
		{"/rpc/ret_artists?select=name&limit=5", "0-4/275", 206},
	}
	for _, c := range cases {
		st, b, h := ts.do(t, "GET", c.path, nil, "Prefer", "count=exact")
		if st != c.status || string(h.Peek("Content-Range")) != c.rng {
			t.Errorf("%s: %d Content-Range %q, want %d %q (%s)", c.path, st, h.Peek("Content-Range"), c.status, c.rng, trunc(b))
		}
	}
	_, _, h := ts.do(t, "GET", "/track?album_id=eq.1&limit=2", nil)
	if got := string(h.Peek("Content-Range")); got != "0-1/*" {
		t.Errorf("without count: Content-Range %q, want 0-1/*", got)
	}
}
