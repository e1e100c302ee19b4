package configs

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
)

func pgConn(t *testing.T) (*labtest.Cluster, *pgx.Conn) {
	t.Helper()
	c := labtest.Postgres(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, fmt.Sprintf("postgres://postgres@/postgres?host=%s&port=%d", c.SocketDir, c.Port))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return c, conn
}

func show(t *testing.T, conn *pgx.Conn, name string) string {
	t.Helper()
	var v string
	if err := conn.QueryRow(context.Background(), "SELECT current_setting($1)", name).Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func autoConfBytes(t *testing.T, conn *pgx.Conn) []byte {
	t.Helper()
	_, raw, err := autoConf(context.Background(), conn)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// resetAll leaves the shared cluster as the test found it even if it fails.
func resetAll(t *testing.T, conn *pgx.Conn, names ...string) {
	t.Cleanup(func() {
		ctx := context.Background()
		for _, n := range names {
			conn.Exec(ctx, "ALTER SYSTEM RESET "+n)
		}
		conn.Exec(ctx, "SELECT pg_reload_conf()")
	})
}

func TestApplyRestorePGSettings(t *testing.T) {
	ctx := context.Background()
	_, conn := pgConn(t)
	resetAll(t, conn, "work_mem", "jit", "shared_buffers", "random_page_cost", "log_min_duration_statement")
	// An administrator's own ALTER SYSTEM value, which must survive.
	if _, err := conn.Exec(ctx, "ALTER SYSTEM SET random_page_cost = '1.1'"); err != nil {
		t.Fatal(err)
	}
	if err := reload(ctx, conn); err != nil {
		t.Fatal(err)
	}
	before := autoConfBytes(t, conn)
	origWorkMem, origJIT, origRPC := show(t, conn, "work_mem"), show(t, conn, "jit"), show(t, conn, "random_page_cost")
	state := t.TempDir()
	j, _ := OpenJournal(state)

	needRestart, err := ApplyPGSettings(ctx, conn, j, map[string]string{"work_mem": "8MB", "jit": "off", "random_page_cost": "2"})
	if err != nil || needRestart {
		t.Fatalf("apply reload-only settings: restart=%v err=%v", needRestart, err)
	}
	if show(t, conn, "work_mem") != "8MB" || show(t, conn, "jit") != "off" || show(t, conn, "random_page_cost") != "2" {
		t.Fatal("settings not in effect after reload")
	}
	needRestart, err = ApplyPGSettings(ctx, conn, j, map[string]string{"work_mem": "16MB", "shared_buffers": "64MB"})
	if err != nil || !needRestart {
		t.Fatalf("shared_buffers should need a restart: restart=%v err=%v", needRestart, err)
	}
	if p := j.Pending(); len(p) != 1 || p[0].Kind != EntryPG || len(p[0].PG) != 4 || !bytes2(p[0].Original, before) {
		t.Fatalf("pending = %+v", p)
	} else {
		t.Logf("pending after apply: %s", p[0])
	}
	info, err := PGSettings(ctx, conn, []string{"shared_buffers", "work_mem"})
	if err != nil || !info["shared_buffers"].NeedsRestart() || info["work_mem"].NeedsRestart() || !info["shared_buffers"].PendingRestart {
		t.Fatalf("PGSettings = %+v, %v", info, err)
	}

	// Next start: a fresh journal over the same state dir restores.
	j2, _ := OpenJournal(state)
	needRestart, err = RestorePGSettings(ctx, conn, j2)
	if err != nil {
		t.Fatal(err)
	}
	if needRestart {
		t.Error("restore reported a restart though shared_buffers never changed in the running server")
	}
	if got := autoConfBytes(t, conn); string(got) != string(before) {
		t.Fatalf("postgresql.auto.conf not restored byte for byte:\n%s\nwant\n%s", got, before)
	}
	if show(t, conn, "work_mem") != origWorkMem || show(t, conn, "jit") != origJIT || show(t, conn, "random_page_cost") != origRPC {
		t.Fatal("running values not restored")
	}
	if len(j2.Pending()) != 0 {
		t.Fatal("journal not cleared")
	}
}

func bytes2(a, b []byte) bool { return string(a) == string(b) }

func TestPGSettingsConflictAndErrors(t *testing.T) {
	ctx := context.Background()
	_, conn := pgConn(t)
	resetAll(t, conn, "work_mem", "jit")
	j, _ := OpenJournal(t.TempDir())

	_, err := ApplyPGSettings(ctx, conn, j, map[string]string{"shared_bufers": "1GB"})
	if err == nil || !strings.Contains(err.Error(), `did you mean "shared_buffers"`) {
		t.Fatalf("typo: %v", err)
	}
	_, err = ApplyPGSettings(ctx, conn, j, map[string]string{"work_mem": "lots"})
	if err == nil || !strings.Contains(err.Error(), "work_mem") {
		t.Fatalf("bad value: %v", err)
	}
	_, err = ApplyPGSettings(ctx, conn, j, map[string]string{"block_size": "16384"})
	if err == nil || !strings.Contains(err.Error(), "cannot be changed") {
		t.Fatalf("internal setting: %v", err)
	}
	if _, err := RestorePGSettings(ctx, conn, j); err != nil { // the bad value was journalled first
		t.Fatal(err)
	}

	if _, err := ApplyPGSettings(ctx, conn, j, map[string]string{"work_mem": "8MB", "jit": "off"}); err != nil {
		t.Fatal(err)
	}
	// Someone else changes work_mem behind the lab's back.
	conn.Exec(ctx, "ALTER SYSTEM SET work_mem = '32MB'")
	_, err = RestorePGSettings(ctx, conn, j)
	var ce *ConflictError
	if !errors.As(err, &ce) || !strings.Contains(ce.Detail, `work_mem in postgresql.auto.conf is "32MB"`) {
		t.Fatalf("want a ConflictError for work_mem, got %v", err)
	}
	if show(t, conn, "work_mem") != "32MB" {
		t.Fatal("foreign change overwritten")
	}
	if v, _, _ := autoConf(ctx, conn); v["jit"] != "" {
		t.Fatalf("jit not restored: %v", v)
	}
	if p := j.Pending(); len(p) != 1 || len(p[0].PG) != 1 || p[0].PG[0].Name != "work_mem" {
		t.Fatalf("pending = %+v", p)
	}
	// Further applies refuse to touch the conflicting setting.
	if _, err := ApplyPGSettings(ctx, conn, j, map[string]string{"work_mem": "4MB"}); !errors.As(err, &ce) {
		t.Fatalf("apply over a foreign change: %v", err)
	}
}

// TestDeriveDBURIConnects: URIs derived both ways reach the real server over
// the transport asked for.
func TestDeriveDBURIConnects(t *testing.T) {
	c, _ := pgConn(t)
	pg := PGAddr{Host: "127.0.0.1", Port: c.Port, SocketDir: c.SocketDir}
	base := fmt.Sprintf("postgres://postgres@localhost:%d/postgres?sslmode=disable&application_name=configs-test", c.Port)
	kv := fmt.Sprintf("host=localhost port=%d dbname=postgres user=postgres sslmode=disable", c.Port)
	for _, b := range []string{base, kv} {
		for _, tr := range []string{"unix", "tcp"} {
			uri, err := DeriveDBURI(b, tr, pg)
			if err != nil {
				t.Fatal(err)
			}
			back, err := DeriveDBURI(uri, map[string]string{"unix": "tcp", "tcp": "unix"}[tr], pg)
			if err != nil {
				t.Fatal(err)
			}
			for _, u := range []string{uri, back} {
				want, _ := Transport(u)
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				conn, err := pgx.Connect(ctx, u)
				if err != nil {
					cancel()
					t.Fatalf("%s: %v", u, err)
				}
				var unix bool
				if err := conn.QueryRow(ctx, "SELECT inet_server_addr() IS NULL").Scan(&unix); err != nil {
					t.Fatal(err)
				}
				conn.Close(ctx)
				cancel()
				if unix != (want == "unix") {
					t.Errorf("%s: connected over unix=%v, want %s", u, unix, want)
				}
			}
		}
	}
}
