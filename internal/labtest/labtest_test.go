package labtest

import (
	"os/exec"
	"strings"
	"testing"
)

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

func TestPostgRESTBinary(t *testing.T) {
	p := PostgREST(t)
	out, err := exec.Command(p, "--version").Output()
	if err != nil || !strings.HasPrefix(string(out), "PostgREST ") {
		t.Errorf("%s --version: %q %v", p, out, err)
	}
}
