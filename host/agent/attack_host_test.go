package agent

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pgrst-lab/pgrst-lab/host/stack"
	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/systemd"
)

// Attacks on the host side (issue 27's review, findings 2 and 7): what the postgres user can
// plant in the stack's state directory, and a db-uri that logs in as a
// superuser.

// rootVictim is a file only root may reach (0644 in a 0700 directory of
// root's) and a path next to it that does not exist.
func rootVictim(t *testing.T) (victim, missing string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	victim = filepath.Join(dir, "root-only")
	if err := os.WriteFile(victim, []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(victim, 0o644); err != nil {
		t.Fatal(err)
	}
	return victim, filepath.Join(dir, "created-by-root")
}

// victimUntouched fails when victim changed (content, mode, owner) or
// missing exists.
func victimUntouched(t *testing.T, when, victim, missing string) {
	t.Helper()
	b, err := os.ReadFile(victim)
	if err != nil || string(b) != "precious\n" {
		t.Errorf("%s: the root-only file %s changed: %q %v", when, victim, b, err)
	}
	if fi, err := os.Stat(victim); err == nil {
		st := fi.Sys().(*syscall.Stat_t)
		if fi.Mode().Perm() != 0o644 || st.Uid != 0 {
			t.Errorf("%s: the root-only file is now mode %04o, owner %d (want 0644, root)", when, fi.Mode().Perm(), st.Uid)
		}
	}
	if _, err := os.Lstat(missing); err == nil {
		t.Errorf("%s: root created %s through a planted link", when, missing)
	}
}

// plant makes path a symlink to to: as the postgres user when it can (the
// attack), else as root, as a link left from before the fix (when logs/
// belonged to postgres) would be. It reports whether postgres could.
func plant(t *testing.T, path, to string) bool {
	t.Helper()
	if err := labtest.AsPostgres(t, "ln", "-sfn", to, path); err == nil {
		return true
	} else {
		t.Logf("the postgres user cannot plant %s: %v", path, err)
	}
	if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if err := os.Symlink(to, path); err != nil {
		t.Fatal(err)
	}
	return false
}

// Finding 2a: logs/ belonged to postgres and root reopened target.log and
// postgres.log by path at every apply and restore, following a link
// planted there: a root 0644 file became 0600 with PostgREST's log
// appended, a link to a missing path made root create it.
func attackLogSymlink(t *testing.T, r *rig) {
	logFile := r.lcfg.TargetSpec.LogFile
	logDir := filepath.Dir(logFile)
	if err := labtest.AsPostgres(t, "touch", filepath.Join(logDir, "planted-by-postgres")); err == nil {
		t.Errorf("the postgres user can create files in %s, where root writes the logs", logDir)
		os.Remove(filepath.Join(logDir, "planted-by-postgres"))
	}
	victim, missing := rootVictim(t)
	a := r.agent(t, DefaultPolicy(), 0)
	a.open()
	for i, to := range []string{victim, missing} {
		byPostgres := plant(t, logFile, to)
		// db-pool is not reloadable: the apply and the restore restart the target.
		if status, body := a.apply(fmt.Sprintf(`{"name":"restart%d","postgrest":{"db-pool":"%d"}}`, i, 3+i)); status != http.StatusOK {
			t.Errorf("apply after planting %s -> %s (by postgres: %v): %d %s", logFile, to, byPostgres, status, body)
		}
		if status, body := a.do("POST", "/restore", "", strings.NewReader(`{}`)); status != http.StatusOK {
			t.Errorf("restore: %d %s", status, body)
		}
		victimUntouched(t, fmt.Sprintf("after apply and restore with %s -> %s (planted by postgres: %v)", logFile, to, byPostgres), victim, missing)
		if fi, err := os.Lstat(logFile); err != nil || !fi.Mode().IsRegular() {
			t.Errorf("%s after the restart: %v %v, want a regular file", logFile, fi, err)
			os.Remove(logFile) // the link points into this case's temporary directory
		}
	}
	if status, body := a.close(); status != http.StatusNoContent {
		t.Fatalf("close: %d %s", status, body)
	}
	victimUntouched(t, "after close", victim, missing)
}

// Finding 2b: `lab stack up` on a stopped stack wrote pg_hba.conf and
// lab.conf into pg-data (the postgres user's) with os.WriteFile and
// os.Chown by path: a root-only file behind a link became postgres's.
func attackPGHBASymlink(t *testing.T, r *rig) {
	mode := systemd.ModeDirect
	if r.st.Controller.Kind() != systemd.KindDirect {
		mode = systemd.ModeSystemd
	}
	s, st := upStack(t, mode, "")
	dir := st.Dir
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if err := s.Down(ctx, false); err != nil {
		t.Fatalf("down: %v", err)
	}
	s.Close()
	victim, missing := rootVictim(t)
	pgData := filepath.Join(dir, "pg-data")
	for name, to := range map[string]string{"pg_hba.conf": victim, "lab.conf": missing} {
		if err := labtest.AsPostgres(t, "ln", "-sfn", to, filepath.Join(pgData, name)); err != nil {
			t.Fatalf("the postgres user owns %s, yet: %v", pgData, err)
		}
	}
	s2, err := stack.Up(ctx, stack.Options{Dir: dir, Supervisor: mode})
	if err == nil {
		s2.Close()
	} else {
		t.Logf("stack up over the planted links: %v", err)
	}
	victimUntouched(t, "after stack up over planted pg-data/pg_hba.conf and lab.conf", victim, missing)
}

// Finding 7: with db-uri in allow.postgrest_keys, a db-uri that logs in
// as the superuser (or as a role that is a member of one, or one with
// BYPASSRLS) was applied: PostgREST's pool connected as the superuser.
func attackSuperuserDBURI(t *testing.T, r *rig) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	admin, err := pgx.Connect(ctx, r.st.AdminURI)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(context.WithoutCancel(ctx))
	roles := []string{"lab_r3_member", "lab_r3_bypass", "lab_r3_anon_member"}
	drop := func() {
		for _, role := range roles {
			_, _ = admin.Exec(context.WithoutCancel(ctx), "DROP ROLE IF EXISTS "+role)
		}
	}
	drop()
	t.Cleanup(drop)
	for _, sql := range []string{
		"CREATE ROLE lab_r3_member LOGIN NOSUPERUSER",
		"GRANT postgres TO lab_r3_member",
		"CREATE ROLE lab_r3_bypass LOGIN NOSUPERUSER BYPASSRLS",
		"CREATE ROLE lab_r3_anon_member NOLOGIN NOSUPERUSER",
		"GRANT lab_r3_bypass TO lab_r3_anon_member",
	} {
		if _, err := admin.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	// asRole is the admin URI (the Unix socket, trusted) as another role.
	asRole := func(role string) string {
		u, err := url.Parse(r.st.AdminURI)
		if err != nil {
			t.Fatal(err)
		}
		u.User = url.User(role)
		return u.String()
	}
	pol := DefaultPolicy()
	pol.PostgRESTKeys = []string{"db-uri", "db-anon-role", "db-pool"}
	pol.Env = append(pol.Env, "PGRST_DB_URI", "PGRST_DB_ANON_ROLE")
	a := r.agent(t, pol, 0)
	a.open()
	for _, v := range []string{
		`{"name":"su","postgrest":{"db-uri":` + jsonString(r.st.AdminURI) + `}}`,
		`{"name":"su-env","env":{"PGRST_DB_URI":` + jsonString(r.st.AdminURI) + `}}`,
		`{"name":"member","postgrest":{"db-uri":` + jsonString(asRole("lab_r3_member")) + `}}`,
		`{"name":"bypassrls","postgrest":{"db-uri":` + jsonString(asRole("lab_r3_bypass")) + `}}`,
		`{"name":"set-role","postgrest":{"db-uri":` + jsonString(asRole("lab_r3_member")+"&options=-c%20role%3Dpostgres") + `}}`,
		`{"name":"anon-su","postgrest":{"db-anon-role":"postgres"}}`,
		`{"name":"anon-member","postgrest":{"db-anon-role":"lab_r3_anon_member"}}`,
		`{"name":"anon-env","env":{"PGRST_DB_ANON_ROLE":"lab_r3_bypass"}}`,
	} {
		status, body := a.apply(v)
		if status != http.StatusForbidden {
			t.Errorf("%s: %d %.300s, want 403", v, status, body)
		}
		if b, _ := os.ReadFile(r.st.Config); !bytes.Equal(b, r.original) {
			t.Errorf("after %s the target's config is not the original", v)
		}
	}
	// What must keep working: the stack's own URIs, and a full URI as the
	// authenticator.
	for _, v := range []string{
		`{"name":"tcp","postgrest":{"db-uri":"tcp"}}`,
		`{"name":"unix","postgrest":{"db-uri":"unix"}}`,
		`{"name":"auth","postgrest":{"db-uri":` + jsonString(asRole("authenticator")) + `}}`,
	} {
		if status, body := a.apply(v); status != http.StatusOK {
			t.Errorf("%s: %d %.300s, want 200", v, status, body)
		}
	}
	if status, body := a.close(); status != http.StatusNoContent {
		t.Fatalf("close: %d %s", status, body)
	}
}

// r3-own-search-path-hijack (a way around the fix of finding 7, tried
// and refused): the superuser check of r3-7 connects with
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
