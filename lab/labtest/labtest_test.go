package labtest

import "testing"

func TestMain(m *testing.M) { Main(m) }

func TestChinookLoaded(t *testing.T) {
	db := Chinook(t)
	if err := db.Psql(db.Name, "DO $$ BEGIN IF (SELECT count(*) FROM artist) <> 275 THEN RAISE 'artist rows'; END IF; END $$"); err != nil {
		t.Fatal(err)
	}
	if err := db.Psql(db.Name, "SELECT 1 FROM pg_roles WHERE rolname='web_anon'"); err != nil {
		t.Fatal(err)
	}
}
