package server

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
)

type errBody struct {
	Code    string  `json:"code"`
	Message string  `json:"message"`
	Details *string `json:"details"`
	Hint    *string `json:"hint"`
}

// wantErr checks status and PostgREST error code, and that the body has
// exactly the four keys.
func wantErr(t testing.TB, what string, status int, body []byte, wantStatus int, wantCode string) {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		t.Errorf("%s: body is not a JSON object: %q", what, body)
		return
	}
	for _, k := range []string{"code", "message", "details", "hint"} {
		if _, ok := m[k]; !ok || len(m) != 4 {
			t.Errorf("%s: body %s, want exactly code, message, details, hint", what, body)
			return
		}
	}
	var e errBody
	_ = json.Unmarshal(body, &e)
	if status != wantStatus || e.Code != wantCode {
		t.Errorf("%s: %d %s (%s), want %d %s", what, status, e.Code, e.Message, wantStatus, wantCode)
	}
}

func TestErrors(t *testing.T) {
	db := labtest.Chinook(t)
	ts := start(t, db.UnixURI("authenticator"), nil)
	cases := []struct {
		method, path, body string
		status             int
		code               string
	}{
		{"GET", "/nope", "", 404, "PGRST205"},
		{"GET", "/artist?select=nope", "", 400, "42703"},
		{"GET", "/artist?nope=eq.1", "", 400, "42703"},
		{"GET", "/artist?artist_id=equals.1", "", 400, "PGRST100"},
		{"GET", "/artist?artist_id=1", "", 400, "PGRST100"},
		{"GET", "/artist?artist_id=eq.abc", "", 400, "22P02"},
		{"GET", "/artist?limit=-1", "", 400, "PGRST100"},
		{"GET", "/artist?order=name.sideways", "", 400, "PGRST100"},
		{"GET", "/artist?select=*,nope(*)", "", 400, "PGRST200"},
		{"POST", "/employee", "{", 400, "PGRST102"},
		{"POST", "/employee", `[{"title":"a"},{"city":"b"}]`, 400, "PGRST102"},
		{"POST", "/employee", `{"nope":1}`, 400, "PGRST204"},
		{"POST", "/artist", `{"artist_id":9999,"name":"x"}`, 401, "42501"},
		{"GET", "/rpc/nope", "", 404, "PGRST202"},
		{"GET", "/rpc/add_them?a=1", "", 404, "PGRST202"},
		{"POST", "/rpc/add_them", `{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6}`, 404, "PGRST202"},
		{"POST", "/rpc/add_them", `[1]`, 400, "PGRST102"},
		{"PUT", "/artist", "{}", 405, "PGRST117"},
		{"PATCH", "/employee?employee_id=eq.1", "[]", 400, "PGRST102"},
		{"PATCH", "/employee?employee_id=eq.1", `{"nope":1}`, 400, "PGRST204"},
		{"PATCH", "/artist?artist_id=eq.1", `{"name":"x"}`, 401, "42501"},
		{"GET", "/artist/1", "", 404, "PGRST125"},
	}
	for _, c := range cases {
		var body []byte
		if c.body != "" {
			body = []byte(c.body)
		}
		st, b, _ := ts.do(t, c.method, c.path, body)
		wantErr(t, c.method+" "+c.path, st, b, c.status, c.code)
	}
	// POST /rpc with a JSON object works and returns the scalar
	st, b, _ := ts.do(t, "POST", "/rpc/add_them", []byte(`{"a":1,"b":2,"c":3,"d":4,"e":"5"}`))
	if st != 200 || string(b) != "15" {
		t.Errorf("POST /rpc/add_them: %d %s, want 200 15", st, b)
	}
}

// TestNotReady: with no database the API answers 503 PGRST002, /ready is
// 503 and /live 200; the server still shuts down cleanly.
func TestNotReady(t *testing.T) {
	o := Defaults()
	o.DBURI = "postgres://authenticator@127.0.0.1:1/none?sslmode=disable&connect_timeout=1"
	o.AnonRole, o.Host, o.Port, o.AdminHost, o.AdminPort = "web_anon", "127.0.0.1", 0, "127.0.0.1", 0
	o.LogLevel = LogCrit
	s, err := New(o)
	must(t, err)
	must(t, s.Listen())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx) }()
	ts := &testServer{Server: s, base: "http://" + s.Addr().String(), admin: "http://" + s.AdminAddr().String()}
	ts.client = newClient()
	st, b := ts.get(t, "/artist") // the listeners are open: no wait needed
	wantErr(t, "GET before schema cache", st, b, 503, "PGRST002")
	if st := ts.adminStatus(t, "/ready"); st != 503 {
		t.Errorf("/ready = %d, want 503", st)
	}
	if st := ts.adminStatus(t, "/live"); st != 200 {
		t.Errorf("/live = %d, want 200", st)
	}
	cancel()
	select {
	case err := <-done:
		must(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("no shutdown")
	}
}

// TestPoolTimeout: with db-pool = 1 and a 1 s acquisition timeout, a request
// queued behind a 2 s one gets 504 PGRST003 and the metric counts it.
func TestPoolTimeout(t *testing.T) {
	db := labtest.Chinook(t)
	must(t, db.Psql(db.Name, `CREATE FUNCTION sleep(seconds float) RETURNS int LANGUAGE sql AS 'SELECT 1 FROM pg_sleep(seconds)'`))
	ts := start(t, db.TCPURI("authenticator"), func(o *Options) { o.Pool = 1; o.AcquireTimeout = time.Second })
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		st, b, _ := ts.do(t, "POST", "/rpc/sleep", []byte(`{"seconds":2}`))
		if st != 200 {
			t.Errorf("sleep: %d %s", st, b)
		}
	}()
	// Wait until the sleep holds the only connection (the pool reports none
	// available), so that the next request has to queue behind it.
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(ts.adminBody(t, "/metrics"), "pgrst_db_pool_available 0\n") {
		if time.Now().After(deadline) {
			t.Fatal("the sleeping request never took the pool's connection")
		}
		time.Sleep(10 * time.Millisecond)
	}
	st, b := ts.get(t, "/artist?artist_id=eq.1")
	wantErr(t, "GET with a busy pool", st, b, 504, "PGRST003")
	wg.Wait()
	m := ts.adminBody(t, "/metrics")
	for _, want := range []string{"pgrst_db_pool_timeouts_total 1", "pgrst_db_pool_max 1", "pgrst_db_pool_available 1", "pgrst_db_pool_waiting 0"} {
		if !strings.Contains(m, want+"\n") {
			t.Errorf("metrics lack %q:\n%s", want, m)
		}
	}
	if st, _ := ts.get(t, "/artist?artist_id=eq.1"); st != 200 {
		t.Errorf("after the timeout: %d", st)
	}
}

// TestPreparedStatementsMode: db-prepared-statements picks pgx's statement
// cache or unnamed one-round-trip statements.
func TestPreparedStatementsMode(t *testing.T) {
	for _, on := range []bool{true, false} {
		o := Defaults()
		o.DBURI = "postgres://u@127.0.0.1:1/x"
		o.PreparedStatements = on
		s, err := New(o)
		must(t, err)
		got := s.pool.Config().ConnConfig.DefaultQueryExecMode
		want := pgx.QueryExecModeExec
		if on {
			want = pgx.QueryExecModeCacheStatement
		}
		if got != want {
			t.Errorf("prepared=%v: mode %v, want %v", on, got, want)
		}
		s.pool.Close()
	}
}
