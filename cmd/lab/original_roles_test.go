package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pgrst-lab/pgrst-lab/configs"
	"github.com/pgrst-lab/pgrst-lab/host/agent/agenttest"
	"github.com/pgrst-lab/pgrst-lab/host/stack"
)

// setConfigKey rewrites key in the PostgREST config at path.
func setConfigKey(t *testing.T, path, key, val string) {
	t.Helper()
	f, err := configs.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Set(key, configs.String(val)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, f.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// agentStarts runs `lab agent --config cfg` in this process until it
// listens (true; then it is stopped) or returns (false, with its error).
func agentStarts(t *testing.T, cfg string) (bool, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var out, errb lockedBuffer
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"agent", "--config", cfg}, &out, &errb) }()
	for {
		select {
		case err := <-done:
			return false, err
		case <-time.After(50 * time.Millisecond):
		}
		if strings.Contains(out.String(), "listening on") {
			cancel()
			<-done
			return true, nil
		}
	}
}

// Issue 41, item 6c: the agent checked the roles of a variant's db-uri
// and db-anon-role but trusted the target's own config. On the lab
// stack's real PostgreSQL, a target config whose db-uri logs in as the
// postgres superuser, or whose db-anon-role is postgres, makes `lab
// agent` refuse to serve, naming the config file, the key and the role
// and saying what to use instead; the stack's own config (authenticator,
// NOINHERIT) is served. A local `lab run` on the superuser config warns.
func TestAgentRefusesASuperuserTarget(t *testing.T) {
	t.Parallel() // structure, not an effect's size: see parallelTests
	dir := directStack(t)
	s, err := stack.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	st, err := s.Status(context.Background())
	s.Close()
	if err != nil {
		t.Fatal(err)
	}
	conf := st.Config
	original, err := os.ReadFile(conf)
	if err != nil {
		t.Fatal(err)
	}
	superURI := strings.Replace(st.UnixURI, "authenticator@", "postgres@", 1)
	if superURI == st.UnixURI {
		t.Fatalf("no authenticator in the stack's unix URI %s", st.UnixURI)
	}
	tmp := t.TempDir()
	cfg := writeFile(t, tmp, "agent.toml", "listen = \"127.0.0.1:0\"\ntoken_file = \""+agenttest.TokenFile(t, agentTestToken)+"\"\n[stack]\ndir = \""+dir+"\"\n", 0o600)

	for _, c := range []struct{ key, val, want string }{
		{"db-uri", superURI, `db-uri: logs in as "postgres"`},
		{"db-anon-role", "postgres", `db-anon-role: role "postgres" is`},
	} {
		if err := os.WriteFile(conf, original, 0o644); err != nil {
			t.Fatal(err)
		}
		setConfigKey(t, conf, c.key, c.val)
		listened, err := agentStarts(t, cfg)
		if listened || err == nil {
			t.Errorf("%s = %s: the agent served (err %v)", c.key, c.val, err)
			continue
		}
		t.Logf("%s = %s: %v", c.key, c.val, err)
		for _, w := range []string{conf, c.want, "SUPERUSER or BYPASSRLS", "NOINHERIT"} {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s = %s: the refusal lacks %q:\n%v", c.key, c.val, w, err)
			}
		}
	}

	// lab run on the same stack measures the user's own server, and says
	// what it runs as. The target (its own unprivileged user) reaches the
	// socket as authenticator only, so here authenticator is made a
	// superuser for the run.
	if err := os.WriteFile(conf, original, 0o644); err != nil {
		t.Fatal(err)
	}
	superAuthenticator(t, st.AdminURI)
	var out, errb bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	err = run(ctx, []string{"run", "log-level", "--scenarios", "GETSingle", "--dir", dir, "--results", filepath.Join(tmp, "results"),
		"--min-trials", "2", "--max-trials", "2", "--duration", "1s", "--warmup", "0s"}, &out, &errb)
	if err != nil {
		t.Fatalf("lab run on a superuser's config: %v\n%s\n%s", err, out.String(), errb.String())
	}
	if w := "warning: " + conf + `: db-uri: logs in as "authenticator"`; !strings.Contains(errb.String(), w) {
		t.Errorf("lab run did not warn %q:\n%s", w, errb.String())
	}

	// The stack's own config is served.
	if err := os.WriteFile(conf, original, 0o644); err != nil {
		t.Fatal(err)
	}
	adminExec(t, st.AdminURI, "ALTER ROLE authenticator NOSUPERUSER")
	if listened, err := agentStarts(t, cfg); !listened {
		t.Fatalf("the agent refused the stack's own config: %v", err)
	}
}

// superAuthenticator makes the stack's authenticator role a superuser
// until the test ends.
func superAuthenticator(t *testing.T, adminURI string) {
	t.Helper()
	adminExec(t, adminURI, "ALTER ROLE authenticator SUPERUSER")
	t.Cleanup(func() { adminExec(t, adminURI, "ALTER ROLE authenticator NOSUPERUSER") })
}

// adminExec runs sql as the stack's superuser (Status.AdminURI).
func adminExec(t *testing.T, adminURI, sql string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, adminURI)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, sql); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}
