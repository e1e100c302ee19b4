package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
)

// TestProcess runs the real binary over a Unix-socket db-uri, serving HTTP
// on a Unix socket, at log-level info: one access-log line per request,
// SIGUSR1 reloads the schema cache, SIGTERM exits 0.
func TestProcess(t *testing.T) {
	db := labtest.Chinook(t)
	p := startProc(t, db, db.UnixURI("authenticator"), "log-level = \"info\"\ndb-pool = 2\nsome-unknown-key = 1\n", true)
	st, b := p.get(t, "/artist?select=*&artist_id=eq.3")
	want := `[{"artist_id":3,"name":` + artistName(t, db, 3) + `}]`
	if st != 200 || string(b) != want {
		t.Fatalf("GETSingle: %d %s, want %s", st, b, want)
	}
	if st, _ := p.get(t, "/"); st != 200 {
		t.Errorf("GET / = %d, want 200", st)
	}
	wantTransport(t, db, true)
	labtest.WaitFor(t, "access log line", func() bool {
		return strings.Contains(p.stdout.String(), fmt.Sprintf(`"GET /artist?select=*&artist_id=eq.3 HTTP/1.1" 200 %d`, len(want)))
	})

	if err := db.Psql(db.Name, "CREATE TABLE late (id int); GRANT SELECT ON late TO web_anon"); err != nil {
		t.Fatal(err)
	}
	if st, _ := p.get(t, "/late"); st != 404 {
		t.Fatalf("GET /late before reload = %d, want 404", st)
	}
	_ = p.cmd.Process.Signal(syscall.SIGUSR1)
	labtest.WaitFor(t, "GET /late after SIGUSR1", func() bool { st, _ := p.get(t, "/late"); return st == 200 })

	if err := p.stop(t); err != nil {
		t.Errorf("exit after SIGTERM: %v (stderr %s)", err, p.stderr)
	}
}

// TestProcessTCP: TCP db-uri, TCP HTTP, /metrics has the pool gauges, and
// PGRST_DB_POOL overrides the file's db-pool as in PostgREST.
func TestProcessTCP(t *testing.T) {
	db := labtest.Chinook(t)
	p := startProc(t, db, db.TCPURI("authenticator"), "db-pool = 7\nlog-level = \"crit\"\ndb-prepared-statements = false\n", false, "PGRST_DB_POOL=3")
	st, b := p.get(t, "/album?select=*,track(*,genre(*))&artist_id=eq.127")
	if st != 200 || !strings.Contains(string(b), `"genre":{"genre_id":`) {
		t.Fatalf("GETSingleEmbed: %d %.200s", st, b)
	}
	wantTransport(t, db, false)
	_, m, err := p.client.GetTimeout(nil, p.admin+"/metrics", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"pgrst_db_pool_available 3", "pgrst_db_pool_waiting 0", "pgrst_db_pool_max 3", "pgrst_db_pool_timeouts_total 0"} {
		if !strings.Contains(string(m), k+"\n") {
			t.Errorf("metrics lack %q:\n%s", k, m)
		}
	}
	if p.stdout.String() != "" {
		t.Errorf("log-level crit wrote access log: %q", p.stdout.String())
	}
}

// TestSdNotify: with NOTIFY_SOCKET set (systemd Type=notify), READY=1 is
// sent once the schema cache is loaded and STOPPING=1 on SIGTERM.
func TestSdNotify(t *testing.T) {
	db := labtest.Chinook(t)
	sock := filepath.Join(t.TempDir(), "notify.sock")
	conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: sock, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	p := startProc(t, db, db.UnixURI("authenticator"), "", false, "NOTIFY_SOCKET="+sock)
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	buf := make([]byte, 256)
	n, err := conn.Read(buf)
	if err != nil || string(buf[:n]) != "READY=1" {
		t.Fatalf("first notification: %q, %v; want READY=1", buf[:n], err)
	}
	if err := p.stop(t); err != nil {
		t.Errorf("exit: %v", err)
	}
	n, err = conn.Read(buf)
	if err != nil || string(buf[:n]) != "STOPPING=1" {
		t.Errorf("on SIGTERM: %q, %v; want STOPPING=1", buf[:n], err)
	}
}

// TestConfigErrors: a syntax error or a bad value exits 1 naming the place.
func TestConfigErrors(t *testing.T) {
	dir := t.TempDir()
	cases := map[string]string{
		"db-uri = 'single quotes'\n":                 "postgrest.conf:1",
		"db-pool = 10\nlog-level = \"loud\"\n":       "log-level",
		"db-pool = \"many\"\n":                       "db-pool",
		"db-uri = \"postgres://x@/y\"\nnot a line\n": "postgrest.conf:2",
	}
	for cfg, want := range cases {
		path := filepath.Join(dir, "postgrest.conf")
		if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(binary(t), path)
		out, err := cmd.CombinedOutput()
		ee, ok := err.(*exec.ExitError)
		if !ok || ee.ExitCode() != 1 || !strings.Contains(string(out), want) {
			t.Errorf("config %q: exit %v, output %q; want exit 1 mentioning %q", cfg, err, out, want)
		}
	}
}

// artistName is, as a JSON string, the name of an artist in db (the
// generated Chinook's names are not the real ones; tests do not hard-code them).
func artistName(t *testing.T, db labtest.DB, id int) string {
	t.Helper()
	var name []byte
	if err := db.Conn(t).QueryRow(context.Background(), "SELECT to_json(name) FROM artist WHERE artist_id = $1", id).Scan(&name); err != nil {
		t.Fatal(err)
	}
	return string(name)
}

// wantTransport checks in pg_stat_activity that postgrest-mini's backends
// came over the Unix socket (client_addr NULL) or over TCP.
func wantTransport(t *testing.T, db labtest.DB, unix bool) {
	t.Helper()
	var total, viaUnix int
	err := db.Conn(t).QueryRow(context.Background(), `SELECT count(*), count(*) FILTER (WHERE client_addr IS NULL)
		FROM pg_stat_activity WHERE datname = $1 AND application_name = 'postgrest-mini'`, db.Name).Scan(&total, &viaUnix)
	if err != nil {
		t.Fatal(err)
	}
	if total == 0 || unix && viaUnix != total || !unix && viaUnix != 0 {
		t.Errorf("backends: %d, %d via Unix socket; want all via unix=%v", total, viaUnix, unix)
	}
}
