package loadgen

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/chinook"
	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
)

// servePostgREST runs the real PostgREST on db (as web_anon, like the
// lab's stack) on a free loopback port until the test ends, and returns
// its URL once it serves the database.
func servePostgREST(t *testing.T, db labtest.DB) string {
	t.Helper()
	return servePostgRESTWith(t, db, "")
}

// servePostgRESTWith is servePostgREST with more config lines.
func servePostgRESTWith(t *testing.T, db labtest.DB, extra string) string {
	t.Helper()
	return servePostgRESTOf(t, labtest.PostgREST(t), db, extra)
}

// servePostgRESTOf is servePostgRESTWith for the real binary bin.
func servePostgRESTOf(t *testing.T, bin string, db labtest.DB, extra string) string {
	t.Helper()
	port, admin := labtest.FreePort(t), labtest.FreePort(t)
	conf := filepath.Join(t.TempDir(), "postgrest.conf")
	text := fmt.Sprintf("db-uri = %q\ndb-schemas = \"public\"\ndb-anon-role = \"web_anon\"\nserver-host = \"127.0.0.1\"\nserver-port = %d\nadmin-server-port = %d\n",
		db.UnixURI("authenticator"), port, admin)
	text += extra
	if err := os.WriteFile(conf, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, conf)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	url := fmt.Sprintf("http://127.0.0.1:%d", port)
	labtest.WaitFor(t, "PostgREST serving "+db.Name, func() bool {
		resp, err := http.Get(url + "/artist?limit=1")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == 200
	})
	return url
}

// The comparison asks the real PostgREST every request of every built-in
// scenario on the real Chinook and on the generated one; the empty
// answers it counts over HTTP agree with the artists without albums
// counted in SQL, and the POST scenarios leave no row behind.
func TestFixtureComparisonOnRealPostgREST(t *testing.T) {
	ctx := context.Background()
	real, gen := labtest.RealChinook(t), labtest.Chinook(t)
	var sides []FixtureSide
	for _, c := range []struct {
		name string
		db   labtest.DB
	}{{"real", real}, {"generated", gen}} {
		side, err := MeasureFixture(ctx, c.name, c.db.UnixURI("postgres"), servePostgREST(t, c.db))
		if err != nil {
			t.Fatal(err)
		}
		sides = append(sides, side)
	}
	md := FixtureComparison(sides)
	t.Logf("\n%s", md)
	beyond := chinook.RowCounts["album"] - chinook.RowCounts["artist"] // ids 276..347 name no artist
	for _, s := range sides {
		for table, n := range chinook.RowCounts {
			if s.Shape.Rows[table] != n {
				t.Errorf("%s: %s has %d rows, want %d", s.Name, table, s.Shape.Rows[table], n)
			}
		}
		ans := map[string]Answer{}
		for _, a := range s.Answers {
			ans[a.Scenario] = a
		}
		for _, name := range []string{"GETSingleEmbed", "RPCGETSingleEmbed"} {
			a := ans[name]
			if want := beyond + s.Shape.AlbumsPerArtist.Zero; a.Requests != chinook.RowCounts["album"] || a.Empty != want {
				t.Errorf("%s %s: %d requests, %d answered [], want %d and %d (ids past the artists + artists without albums)",
					s.Name, name, a.Requests, a.Empty, chinook.RowCounts["album"], want)
			}
		}
		if a := ans["GETSingle"]; a.Requests != chinook.RowCounts["artist"] || a.Empty != 0 {
			t.Errorf("%s GETSingle: %d requests, %d empty, want %d and none", s.Name, a.Requests, a.Empty, chinook.RowCounts["artist"])
		}
		if a := ans["GETAllEmbed"]; a.Requests != 1 || a.Max < 700_000 {
			t.Errorf("%s GETAllEmbed: %d requests of at most %.0f bytes, want one of about 800 KB", s.Name, a.Requests, a.Max)
		}
	}
	if e := sides[0].Answers[1].Empty; e != 143 {
		t.Errorf("real Chinook: GETSingleEmbed answered [] %d times, want 143 (72 ids past the artists, 71 artists without albums)", e)
	}
	for _, db := range []labtest.DB{real, gen} {
		if n := labtest.QueryValue[int64](t, db.UnixURI("postgres"), "SELECT count(*) FROM employee"); n != int64(chinook.RowCounts["employee"]) {
			t.Errorf("%s: %d employees after the comparison, want %d (the POSTs' rows deleted)", db.Name, n, chinook.RowCounts["employee"])
		}
	}
	for _, want := range append(BuiltinNames(), "| album | 347 | 347 |", "| tracks per album |") {
		if !strings.Contains(md, want) {
			t.Errorf("the Markdown lacks %q", want)
		}
	}
}
