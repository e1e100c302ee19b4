package server

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
)

// sqlJSON runs an equivalent query as the superuser and returns its JSON.
func sqlJSON(t testing.TB, conn *pgx.Conn, sql string, args ...any) []byte {
	t.Helper()
	var b []byte
	if err := conn.QueryRow(context.Background(), sql, args...).Scan(&b); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return b
}

// quoted returns, as a JSON string, the text one query yields (e.g. an
// artist's name in the generated Chinook, which tests must not hard-code).
func quoted(t testing.TB, conn *pgx.Conn, sql string, args ...any) string {
	t.Helper()
	return string(sqlJSON(t, conn, "SELECT to_json(("+sql+"))", args...))
}

func superConn(t testing.TB, db labtest.DB) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), db.TCPURI("postgres"))
	must(t, err)
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

// The equivalent SQL is written independently of sqlgen: joins and
// jsonb_build_object instead of correlated row_to_json/json_agg.
const (
	embedSQL = `SELECT coalesce(jsonb_agg(to_jsonb(al) || jsonb_build_object('track', coalesce(
	  (SELECT jsonb_agg(to_jsonb(tr) || jsonb_build_object('genre', to_jsonb(g)))
	   FROM track tr LEFT JOIN genre g ON g.genre_id = tr.genre_id WHERE tr.album_id = al.album_id), '[]'::jsonb))), '[]')
	  FROM album al WHERE $1::int IS NULL OR al.artist_id = $1`
	embedColsSQL = `SELECT coalesce(jsonb_agg(jsonb_build_object('album_id', al.album_id, 'title', al.title, 'artist_id', al.artist_id, 'track', coalesce(
	  (SELECT jsonb_agg(to_jsonb(tr) || jsonb_build_object('genre', to_jsonb(g)))
	   FROM track tr LEFT JOIN genre g ON g.genre_id = tr.genre_id WHERE tr.album_id = al.album_id), '[]'::jsonb))), '[]')
	  FROM album al WHERE al.artist_id = $1`
)

// TestScenarios runs the eight benchmark scenarios over a TCP and a
// Unix-socket db-uri and compares each body with the equivalent SQL.
func TestScenarios(t *testing.T) {
	db := labtest.Chinook(t)
	conn := superConn(t, db)
	chinook := labtest.ChinookDir() // the benchmark's own POST bodies; the data is generated
	single, err := os.ReadFile(filepath.Join(chinook, "post_employee_single.json"))
	must(t, err)
	bulk, err := os.ReadFile(filepath.Join(chinook, "post_employee_bulk20.json"))
	must(t, err)

	for _, tr := range []struct{ name, uri string }{{"tcp", db.TCPURI("authenticator")}, {"unix", db.UnixURI("authenticator")}} {
		t.Run(tr.name, func(t *testing.T) {
			ts := start(t, tr.uri, nil)
			get := func(name, path string, want []byte) {
				t.Helper()
				st, body := ts.get(t, path)
				if st != 200 {
					t.Fatalf("%s: status %d, want 200: %s", name, st, trunc(body))
				}
				jsonEqual(t, name, body, want)
			}
			get("GETSingle", "/artist?select=*&artist_id=eq.3", sqlJSON(t, conn, `SELECT json_agg(a) FROM artist a WHERE artist_id = 3`))
			get("GETSingleEmbed", "/album?select=*,track(*,genre(*))&artist_id=eq.127", sqlJSON(t, conn, embedSQL, 127))
			get("GETAllEmbed", "/album?select=*,track(*,genre(*))", sqlJSON(t, conn, embedSQL, nil))
			get("RPCSimple", "/rpc/add_them?a=1&b=2&c=3&d=4&e=5", sqlJSON(t, conn, `SELECT to_json(add_them(1,2,3,4,5))`))
			get("RPCGETSingle", "/rpc/ret_artists?select=*&artist_id=eq.3", sqlJSON(t, conn, `SELECT json_agg(a) FROM ret_artists() a WHERE artist_id = 3`))
			get("RPCGETSingleEmbed", "/rpc/ret_albums?select=album_id,title,artist_id,track(*,genre(*))&artist_id=eq.127", sqlJSON(t, conn, embedColsSQL, 127))

			before := count(t, conn, "Load Tester")
			st, body, _ := ts.do(t, "POST", "/employee", single)
			if st != 201 || len(body) != 0 {
				t.Fatalf("POSTSingle: %d %q, want 201 and an empty body", st, body)
			}
			jsonEqual(t, "POSTSingle row", sqlJSON(t, conn, `SELECT to_json(e) FROM employee e WHERE employee_id = 100 LIMIT 1`),
				sqlJSON(t, conn, `SELECT to_json(json_populate_record(NULL::employee, $1::json))`, string(single)))
			st, body, _ = ts.do(t, "POST", "/employee?columns=employee_id,first_name,last_name,title,reports_to,birth_date,hire_date,address,city,state,country,postal_code,phone,fax,email", bulk)
			if st != 201 || len(body) != 0 {
				t.Fatalf("POSTBulk: %d %q, want 201 and an empty body", st, body)
			}
			if got := count(t, conn, "Load Tester"); got != before+21 {
				t.Fatalf("after POSTSingle+POSTBulk: %d Load Tester rows, want %d", got, before+21)
			}
			st, body, _ = ts.do(t, "POST", "/employee?select=employee_id,title", single, "Prefer", "return=representation")
			if st != 201 {
				t.Fatalf("POST return=representation: %d %s", st, body)
			}
			jsonEqual(t, "POST return=representation", body, []byte(`[{"employee_id":100,"title":"Load Tester"}]`))
			st, body, _ = ts.do(t, "DELETE", "/employee?title=eq.Load%20Tester", nil)
			if st != 204 || len(body) != 0 {
				t.Fatalf("DELETE: %d %q, want 204", st, body)
			}
			if got := count(t, conn, "Load Tester"); got != 0 {
				t.Fatalf("after DELETE: %d rows left", got)
			}
		})
	}
}

func count(t testing.TB, conn *pgx.Conn, title string) int {
	t.Helper()
	var n int
	must(t, conn.QueryRow(context.Background(), `SELECT count(*) FROM employee WHERE title = $1`, title).Scan(&n))
	return n
}
