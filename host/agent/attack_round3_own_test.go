package agent

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Round 3, the lead's own attacks beyond the eight findings: each
// is a way around a fix of this round that was tried and must not work.

// r3-own-program-args: with allow.args = true, arguments outside +RTS
// ... -RTS reached PostgREST: --dump-config printed its config, secrets
// included, into the log and made it exit; a second file name is not the
// lab's config. A variant's args now hold runtime options only.
func attackProgramArgs(t *testing.T, r *rig) {
	pol := DefaultPolicy()
	pol.Args = true
	a := r.agent(t, pol, 0)
	a.open()
	defer a.close()
	for _, args := range []string{
		`["--dump-config"]`, `["--dump-schema"]`, `["--version"]`,
		`["+RTS","-N2","-RTS","/etc/shadow"]`, `["--","+RTS","-S/x"]`, `["+RTS","-N2","--RTS","--dump-config"]`,
	} {
		if status, body := a.apply(`{"name":"args","args":` + args + `}`); status != http.StatusForbidden {
			t.Errorf("args %s: %d %.300s, want 403", args, status, body)
		}
	}
}

// r3-own-env-spelling: the env allow-list is by exact name and GHCRTS is
// split as GHC splits it; other spellings of a name, and a tab before a
// file-writing option, must not pass.
func attackEnvSpelling(t *testing.T, r *rig) {
	a := r.agent(t, withEnv("PGRST_DB_POOL"), 0)
	a.open()
	defer a.close()
	for _, env := range []string{
		`{"pgrst_db_uri":"postgres://postgres@/chinook"}`,
		`{"Ghcrts":"-S/tmp/x"}`,
		`{"GHCRTS ":"-N2"}`,
		`{"PGRST_DB_POOL\u0000":"3"}`,
		`{"GHCRTS":"-N2\t-S/tmp/x"}`,
		`{"GHCRTS":"-N2\u00a0-S/tmp/x"}`,
	} {
		status, body := a.apply(`{"name":"env","env":` + env + `}`)
		if status != http.StatusForbidden && status != http.StatusUnprocessableEntity {
			t.Errorf("env %s: %d %.300s, want 403 or 422", env, status, body)
		}
	}
}

// r3-own-window-of-an-ended-session: a window of a session that ended is
// gone for the next session, and its old session ID answers 410; no
// window ID from one session reaches another's telemetry.
func attackWindowOfEndedSession(t *testing.T, r *rig) {
	a := r.agent(t, DefaultPolicy(), 0)
	a.open()
	old := a.session
	if status, body := a.do("POST", "/windows", "", strings.NewReader(`{}`)); status != http.StatusCreated {
		t.Fatalf("window: %d %s", status, body)
	}
	if status, body := a.close(); status != http.StatusNoContent {
		t.Fatalf("close: %d %s", status, body)
	}
	a.open()
	defer a.close()
	for _, c := range []struct{ method, path, body string }{
		{"GET", "/windows/w1", ""}, {"POST", "/windows/w1/stop", `{"requests":1}`}, {"DELETE", "/windows/w1", ""},
	} {
		if status, body := a.do(c.method, c.path, "", strings.NewReader(c.body)); status != http.StatusNotFound {
			t.Errorf("%s %s in the next session: %d %.200s, want 404", c.method, c.path, status, body)
		}
	}
	b := *a
	b.session = old
	if status, body := b.do("GET", "/windows/w1", "", nil); status != http.StatusGone {
		t.Errorf("GET /windows/w1 with the ended session's ID: %d %.200s, want 410", status, body)
	}
}

// r3-own-search-path-hijack: the superuser check of r3-7 connects with
// the variant's own db-uri, whose options may set a search_path. A role
// that is a member of postgres and owns a schema with a pg_has_role that
// always says no put that schema before pg_catalog; the check's query then
// asked the role's own function. Now every name in it is schema-qualified.
func attackSearchPathHijack(t *testing.T, r *rig) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	admin, err := pgx.Connect(ctx, r.st.AdminURI)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(context.WithoutCancel(ctx))
	drop := func() {
		for _, sql := range []string{"DROP SCHEMA IF EXISTS lab_r3_evil CASCADE", "DROP ROLE IF EXISTS lab_r3_hijack"} {
			_, _ = admin.Exec(context.WithoutCancel(ctx), sql)
		}
	}
	drop()
	t.Cleanup(drop)
	for _, sql := range []string{
		"CREATE ROLE lab_r3_hijack LOGIN NOSUPERUSER",
		"GRANT postgres TO lab_r3_hijack",
		"CREATE SCHEMA lab_r3_evil AUTHORIZATION lab_r3_hijack",
		"CREATE FUNCTION lab_r3_evil.pg_has_role(name, oid, text) RETURNS boolean LANGUAGE sql AS 'SELECT false'",
		"CREATE FUNCTION lab_r3_evil.pg_has_role(name, oid, unknown) RETURNS boolean LANGUAGE sql AS 'SELECT false'",
	} {
		if _, err := admin.Exec(ctx, sql); err != nil && !strings.Contains(sql, "unknown") {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	u, err := url.Parse(r.st.AdminURI)
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.User("lab_r3_hijack")
	uri := u.String() + "&options=" + strings.ReplaceAll(url.QueryEscape("-c search_path=lab_r3_evil,pg_catalog"), "+", "%20")
	pol := DefaultPolicy()
	pol.PostgRESTKeys = []string{"db-uri"}
	a := r.agent(t, pol, 0)
	a.open()
	defer a.close()
	if status, body := a.apply(`{"name":"hijack","postgrest":{"db-uri":` + jsonString(uri) + `}}`); status != http.StatusForbidden {
		t.Errorf("a member of postgres with its own pg_has_role first on its search_path: %d %.300s, want 403", status, body)
	}
}
