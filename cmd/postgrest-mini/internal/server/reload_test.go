package server

import (
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
)

// TestNotifyReload: a table and a foreign key created after start are
// unknown until NOTIFY pgrst, 'reload schema'; then they can be read and
// embedded, and a column added to a table whose query was prepared on the
// same (only) connection shows up.
func TestNotifyReload(t *testing.T) {
	db := labtest.Chinook(t)
	ts := start(t, db.UnixURI("authenticator"), func(o *Options) { o.Pool = 1 })
	must(t, db.Psql(db.Name, `CREATE TABLE review (id int PRIMARY KEY, album_id int REFERENCES album, stars int);
		INSERT INTO review VALUES (1, 1, 5); GRANT SELECT ON review TO web_anon`))
	st, b := ts.get(t, "/review")
	wantErr(t, "GET /review before reload", st, b, 404, "PGRST205")
	if st, b := ts.get(t, "/artist?artist_id=eq.1"); st != 200 { // prepares SELECT "artist".*
		t.Fatalf("GET /artist: %d %s", st, b)
	}
	must(t, db.Psql(db.Name, `ALTER TABLE artist ADD COLUMN country text DEFAULT 'AU'`))
	loads := ts.loads.Load()
	must(t, db.Psql(db.Name, `NOTIFY pgrst, 'reload schema'`))
	deadline := time.Now().Add(10 * time.Second)
	for ts.loads.Load() == loads {
		if time.Now().After(deadline) {
			t.Fatal("schema cache not reloaded 10 s after NOTIFY")
		}
		time.Sleep(20 * time.Millisecond)
	}
	st, b = ts.get(t, "/review?select=stars,album(title)")
	if st != 200 {
		t.Fatalf("after reload: %d %s", st, b)
	}
	conn := superConn(t, db)
	title1 := quoted(t, conn, "SELECT title FROM album WHERE album_id = 1")
	jsonEqual(t, "embed over the new FK", b, []byte(`[{"stars":5,"album":{"title":`+title1+`}}]`))
	st, b = ts.get(t, "/album?select=title,review(stars)&album_id=eq.1")
	if st != 200 {
		t.Fatalf("one-to-many over the new FK: %d %s", st, b)
	}
	jsonEqual(t, "one-to-many over the new FK", b, []byte(`[{"title":`+title1+`,"review":[{"stars":5}]}]`))
	st, b = ts.get(t, "/artist?artist_id=eq.1")
	if st != 200 {
		t.Fatalf("GET /artist after ALTER TABLE and reload (stale prepared statement?): %d %s", st, b)
	}
	jsonEqual(t, "new column", b, []byte(`[{"artist_id":1,"name":`+quoted(t, conn, "SELECT name FROM artist WHERE artist_id = 1")+`,"country":"AU"}]`))
}
