package agent

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pgrst-lab/pgrst-lab/configs"
	"github.com/pgrst-lab/pgrst-lab/host/reconcile"
	"github.com/pgrst-lab/pgrst-lab/systemd"
)

// Attacks through the configs (issue 27's review, findings 5 and 6): a list-valued PostgreSQL setting
// that could never be restored, and db-uri passwords shown when the URI
// does not parse as a URL.

// adminConn connects to the rig's PostgreSQL as the superuser.
func (r *rig) adminConn(t *testing.T) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, r.st.AdminURI)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

func readAutoConf(t *testing.T, conn *pgx.Conn) string {
	t.Helper()
	var s string
	if err := conn.QueryRow(context.Background(), `SELECT coalesce(pg_read_file('postgresql.auto.conf', 0, 10485760, true), '')`).Scan(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

// Finding 5: search_path = "public, x" was written by ALTER SYSTEM as one
// quoted identifier ('"public, x"') while the journal held it unquoted: the
// restore took it for someone else's change, DELETE /session answered 500
// and every later lease 409, with the variant in place. search_path is
// refused since issue 41 (a server-wide search path lowers a protection);
// temp_tablespaces is the list setting of the same kind (its elements
// quoted as identifiers) a variant may still set. A tablespace that does
// not exist is skipped by PostgreSQL, not refused.
func attackListSettingRestores(t *testing.T, r *rig) {
	conn := r.adminConn(t)
	before := readAutoConf(t, conn)
	pol := DefaultPolicy()
	pol.PostgreSQL = append(pol.PostgreSQL, "temp_tablespaces")
	a := r.agent(t, pol, 0)
	// Registered after the agent's, so it runs first: on a failure, the
	// agent's restore retries (and its shutdown) can then succeed, and the
	// shared rig stays usable for the next cases.
	t.Cleanup(func() {
		if t.Failed() {
			ctx := context.Background()
			conn.Exec(ctx, "ALTER SYSTEM RESET temp_tablespaces")
			conn.Exec(ctx, "SELECT pg_reload_conf()")
		}
	})
	a.open()
	status, body := a.apply(`{"name":"list","postgresql":{"temp_tablespaces":"pg_default, x"}}`)
	if status != http.StatusOK {
		t.Fatalf("apply temp_tablespaces = \"pg_default, x\": %d %s", status, body)
	}
	// The list pg_default, x, as the variant means it (a fresh lease reads
	// the reloaded configuration).
	fresh := r.adminConn(t)
	var tt string
	if err := fresh.QueryRow(context.Background(), "SHOW temp_tablespaces").Scan(&tt); err != nil {
		t.Fatal(err)
	}
	if tt != "pg_default, x" {
		t.Errorf("temp_tablespaces after the apply is %q, want the list pg_default, x", tt)
	}
	if status, body := a.close(); status != http.StatusNoContent {
		t.Fatalf("close after temp_tablespaces = \"pg_default, x\": %d %s, want 204 (restored)", status, body)
	}
	if after := readAutoConf(t, conn); after != before {
		t.Errorf("postgresql.auto.conf after the restore:\n%s\nwant the original:\n%s", after, before)
	}
	j, err := configs.OpenJournal(r.st.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if p := j.Pending(); len(p) != 0 {
		t.Errorf("journal still holds %v after the restore", p)
	}
	a.open()
	if status, body := a.do("GET", "/health", "", nil); status != http.StatusOK {
		t.Errorf("health in the new session: %d %s", status, body)
	}
	if status, body := a.close(); status != http.StatusNoContent {
		t.Fatalf("close of the second session: %d %s", status, body)
	}
}

// hashPassword is the password of the db-uri finding 6 puts in the rig's
// original config: a '#' made url.Parse fail, and the redaction returned
// the URI unchanged.
const hashPassword = "S3cr#tPW"

// Finding 6: with a db-uri password containing '#', db-uri = "unix"
// echoed the password in the reply's from and to.
func attackPasswordWithHash(t *testing.T, r *rig) {
	r.withOriginal(t, func(t *testing.T, f *configs.File, _ *reconcile.Config) {
		setPassword(t, f, hashPassword)
	}, func(t *testing.T) {
		t.Run("db-uri-unix", func(t *testing.T) { passwordWithHash(t, r) })
	})
}

// setPassword gives the authenticator of the config's db-uri a password.
func setPassword(t *testing.T, f *configs.File, password string) {
	t.Helper()
	uri, _ := f.Get("db-uri")
	withPW := strings.Replace(uri.String(), "://authenticator@", "://authenticator:"+password+"@", 1)
	if withPW == uri.String() {
		t.Fatalf("the rig's db-uri %q has no authenticator@ to add a password to", uri.String())
	}
	if err := f.Set("db-uri", configs.String(withPW)); err != nil {
		t.Fatal(err)
	}
}

// withOriginal runs body over a case's own original: the rig's config as
// edit changes it, with the server side (its config as edit changes it
// too) reopened over it, since the server side reads its original when it
// opens. Afterwards the rig's config, server side and target are back.
func (r *rig) withOriginal(t *testing.T, edit func(t *testing.T, f *configs.File, lcfg *reconcile.Config), body func(t *testing.T)) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	f, err := configs.Parse(r.st.Config, r.original)
	if err != nil {
		t.Fatal(err)
	}
	lcfg := r.lcfg
	edit(t, f, &lcfg)
	r.local.Close()
	if err := os.WriteFile(r.st.Config, f.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	// After the agents of body have shut down, and before the suite
	// checks the rig's config.
	defer func() {
		r.local.Close()
		if err := os.WriteFile(r.st.Config, r.original, 0o600); err != nil {
			t.Errorf("put the rig's config back: %v", err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		var err error
		if r.local, err = reconcile.New(ctx, r.lcfg); err != nil {
			t.Fatalf("reopen the server side over the rig's config: %v", err)
		}
		// The target runs the rig's config again.
		if err := r.st.Controller.Restart(ctx, r.st.Target.Name); err != nil {
			t.Fatalf("restart the target: %v", err)
		}
		p := systemd.Probe{AdminURL: r.lcfg.AdminURL, Timeout: r.lcfg.ReadyTimeout, Controller: r.lcfg.Ctl, Unit: r.lcfg.TargetUnit}
		if p.AdminURL == "" {
			p.URL = r.lcfg.URL
		}
		if _, err := systemd.WaitReady(ctx, p); err != nil {
			t.Fatalf("the target is not ready on the rig's config: %v", err)
		}
	}()
	if r.local, err = reconcile.New(ctx, lcfg); err != nil {
		t.Fatalf("open the server side over the case's original: %v", err)
	}
	body(t)
}

func passwordWithHash(t *testing.T, r *rig) {
	pol := DefaultPolicy()
	pol.PostgRESTKeys = []string{"db-uri", "db-pool"}
	a := r.agent(t, pol, 0)
	a.open()
	status, body := a.apply(`{"name":"unix","postgrest":{"db-uri":"unix"}}`)
	if status != http.StatusOK {
		t.Errorf("apply db-uri = unix: %d %s", status, body)
	}
	var reply struct {
		Changes []struct{ Key, From, To string } `json:"changes"`
	}
	_ = json.Unmarshal([]byte(body), &reply)
	t.Logf("changes: %+v", reply.Changes)
	leaks := func(s string) bool {
		return strings.Contains(s, hashPassword) || strings.Contains(s, "S3cr") || strings.Contains(s, "tPW")
	}
	if leaks(body) {
		t.Errorf("the reply shows the password %q: %s", hashPassword, body)
	}
	status, body = a.close()
	if status != http.StatusNoContent {
		t.Errorf("close: %d %s", status, body)
	}
	if leaks(body) {
		t.Errorf("the close reply shows the password: %s", body)
	}
	if leaks(a.logs.text()) {
		t.Errorf("the agent's log shows the password %q:\n%s", hashPassword, a.logs.text())
	}
}
