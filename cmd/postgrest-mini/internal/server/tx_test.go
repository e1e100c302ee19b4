package server

import (
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
)

// TestTransactionSettings: the request runs as the anonymous role with
// PostgREST's request.* settings, GET is read-only, and nothing leaks into
// the next request on the same connection.
func TestTransactionSettings(t *testing.T) {
	db := labtest.Chinook(t)
	must(t, db.Psql(db.Name, `
		CREATE FUNCTION whoami() RETURNS json LANGUAGE sql STABLE AS $$
		  SELECT json_build_object('user', current_user, 'method', current_setting('request.method', true),
		    'path', current_setting('request.path', true), 'ua', current_setting('request.headers', true)::json->>'user-agent',
		    'cookie', current_setting('request.cookies', true)::json->>'c', 'role', current_setting('request.jwt.claims', true)::json->>'role',
		    'ro', current_setting('transaction_read_only'))
		$$;
		CREATE FUNCTION hire() RETURNS int LANGUAGE sql VOLATILE AS $$
		  INSERT INTO employee (employee_id, last_name, first_name) VALUES (900, 'x', 'y') RETURNING employee_id
		$$;`))
	ts := start(t, db.TCPURI("authenticator"), func(o *Options) { o.Pool = 1 })
	st, b, _ := ts.do(t, "GET", "/rpc/whoami", nil, "User-Agent", "lab-test", "Cookie", "c=v")
	if st != 200 {
		t.Fatalf("whoami: %d %s", st, b)
	}
	jsonEqual(t, "GET settings", b, []byte(`{"user":"web_anon","method":"GET","path":"/rpc/whoami","ua":"lab-test","cookie":"v","role":"web_anon","ro":"on"}`))
	st, b, _ = ts.do(t, "POST", "/rpc/whoami", []byte(`{}`), "User-Agent", "lab-test")
	if st != 200 {
		t.Fatalf("POST whoami: %d %s", st, b)
	}
	jsonEqual(t, "POST settings", b, []byte(`{"user":"web_anon","method":"POST","path":"/rpc/whoami","ua":"lab-test","cookie":null,"role":"web_anon","ro":"off"}`))

	st, b, _ = ts.do(t, "GET", "/rpc/hire", nil)
	wantErr(t, "GET on a volatile function that writes", st, b, 405, "25006")
	st, b, _ = ts.do(t, "POST", "/rpc/hire", nil)
	if st != 200 || string(b) != "900" {
		t.Fatalf("POST /rpc/hire: %d %s", st, b)
	}
	// a failed request rolls back and leaves the (only) connection clean
	st, b, _ = ts.do(t, "POST", "/employee", []byte(`{"employee_id":"x"}`))
	wantErr(t, "bad value", st, b, 400, "22P02")
	st, b, _ = ts.do(t, "GET", "/rpc/whoami", nil, "User-Agent", "again")
	jsonEqual(t, "settings after an error", b, []byte(`{"user":"web_anon","method":"GET","path":"/rpc/whoami","ua":"again","cookie":null,"role":"web_anon","ro":"on"}`))
}

// TestPatch: PATCH updates the filtered rows (204), or returns them with
// return=representation (200).
func TestPatch(t *testing.T) {
	db := labtest.Chinook(t)
	must(t, db.Psql(db.Name, "GRANT UPDATE ON employee TO web_anon"))
	ts := start(t, db.UnixURI("authenticator"), nil)
	st, b, _ := ts.do(t, "PATCH", "/employee?employee_id=eq.3", []byte(`{"city":"Banff","state":"AB"}`))
	if st != 204 || len(b) != 0 {
		t.Fatalf("PATCH: %d %s", st, b)
	}
	st, b, _ = ts.do(t, "PATCH", "/employee?employee_id=eq.3&select=employee_id,city", []byte(`{"city":"Jasper"}`), "Prefer", "return=representation")
	if st != 200 {
		t.Fatalf("PATCH representation: %d %s", st, b)
	}
	jsonEqual(t, "PATCH representation", b, []byte(`[{"employee_id":3,"city":"Jasper"}]`))
	jsonEqual(t, "row after PATCH", sqlJSON(t, superConn(t, db), `SELECT json_agg(json_build_object('city', city, 'state', state)) FROM employee WHERE employee_id = 3`),
		[]byte(`[{"city":"Jasper","state":"AB"}]`))
}

// TestPreRequest: db-pre-request's function runs in the request's
// transaction, after its settings (it sees the role and the path) and
// before its statement; an exception it raises is the answer.
func TestPreRequest(t *testing.T) {
	db := labtest.Chinook(t)
	must(t, db.Psql(db.Name, `
		CREATE SCHEMA hooks;
		GRANT USAGE ON SCHEMA hooks TO web_anon;
		CREATE FUNCTION hooks.check() RETURNS void LANGUAGE plpgsql AS $$
		BEGIN
		  IF current_setting('request.path', true) LIKE '%/genre%' THEN
		    RAISE insufficient_privilege USING MESSAGE = 'no genres for ' || current_user;
		  END IF;
		END $$;`))
	ts := start(t, db.TCPURI("authenticator"), func(o *Options) { o.PreRequest = "hooks.check"; o.Pool = 1 })
	if st, b, _ := ts.do(t, "GET", "/artist?artist_id=eq.1", nil); st != 200 {
		t.Fatalf("artist: %d %s", st, b)
	}
	st, b, _ := ts.do(t, "GET", "/genre", nil)
	wantErr(t, "pre-request raising", st, b, 401, "42501")
	if !strings.Contains(string(b), "no genres for web_anon") {
		t.Errorf("the function did not run as the request's role: %s", b)
	}
	if _, err := New(Options{DBURI: db.TCPURI("authenticator"), PreRequest: "a.b.c"}); err == nil || !strings.Contains(err.Error(), "db-pre-request") {
		t.Errorf("a three-part name: %v", err)
	}
}
