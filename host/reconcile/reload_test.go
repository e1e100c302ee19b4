package reconcile

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pgrst-lab/pgrst-lab/host/stack"
	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/postgrest"
	"github.com/pgrst-lab/pgrst-lab/systemd"
)

func execSQL(t *testing.T, uri, sql string) {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), uri)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(context.Background(), sql); err != nil {
		t.Fatal(err)
	}
}

// logAfter waits until the log written since mark contains want, or fails
// after limit. It returns what was written since mark.
func logAfter(t *testing.T, path string, mark int64, want string, limit time.Duration) string {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		got := string(readFrom(path, mark))
		if strings.Contains(got, want) {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %q in %s after %v; it has:\n%.3000s", want, path, limit, got)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestReloadableKeysOnRealPostgREST proves on the real binary which keys a
// config reload (SIGUSR2) applies and which need a restart, checks the
// catalogue agrees, and that Apply reloads instead of restarting exactly
// when every changed key is reloadable:
//
//   - db-prepared-statements: reloaded (PostgreSQL logs unnamed statements
//     for the next request, the process stays the same);
//   - log-level: not reloaded (crit -> info logs no request until a restart);
//   - db-pool: not reloaded (pgrst_db_pool_max keeps the old size).
//
// On each binary of $LAB_POSTGREST (13.0.8 and 14.17 in CI: the same on
// both; log-level becomes reloadable only in 16.0, read from its source).
func TestReloadableKeysOnRealPostgREST(t *testing.T) {
	labtest.EachPostgREST(t, func(t *testing.T, real labtest.Real) { reloadableOn(t, real.Path, real.Version) })
}

func reloadableOn(t *testing.T, bin, version string) {
	l, st := localOn(t, stack.Options{Supervisor: systemd.ModeDirect, Postgrest: bin})
	ctx := context.Background()
	targetLog := l.cfg.TargetSpec.LogFile
	pgLog := filepath.Join(st.Dir, "logs", "postgres.log")
	for key, want := range map[string]bool{"db-prepared-statements": true, "log-level": false, "db-pool": false} {
		if k, _ := postgrest.Lookup(key); k.At(version).Reloadable != want {
			t.Errorf("catalogue: %s reloadable %v in %s, the binary says %v", key, k.At(version).Reloadable, version, want)
		}
	}
	// PostgreSQL logs each statement of the target's new sessions, with the
	// prepared statement's name or <unnamed>.
	execSQL(t, st.AdminURI, "ALTER ROLE authenticator SET log_min_duration_statement = 0")
	if _, err := l.Apply(ctx, lab.Variant{Name: "restart-to-log"}); err != nil {
		t.Fatal(err)
	}
	query := func(id string) string {
		mark := fileSize(pgLog)
		get(t, st.URL+"/artist?artist_id=eq."+id)
		got := logAfter(t, pgLog, mark, "$1 = '"+id+"'", 10*time.Second)
		for _, line := range strings.Split(got, "\n") {
			if strings.Contains(line, "execute") && strings.Contains(line, `"public"."artist"`) {
				return line
			}
		}
		t.Fatalf("no execute of the artist query in:\n%.3000s", got)
		return ""
	}
	if line := query("7"); strings.Contains(line, "<unnamed>") {
		t.Fatalf("prepared statements on, yet: %s", line)
	}

	// By hand: write the config, SIGUSR2, observe.
	pid := mainPID(t, l)
	in, err := l.wanted(lab.Variant{PostgREST: map[string]string{"db-prepared-statements": "false", "log-level": "info", "db-pool": "4"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := l.journal.WriteFile(l.cfg.Config, in.want.config); err != nil {
		t.Fatal(err)
	}
	mark := fileSize(targetLog)
	if err := l.cfg.Ctl.Reload(ctx, l.cfg.TargetUnit); err != nil {
		t.Fatal(err)
	}
	logAfter(t, targetLog, mark, "Config reloaded", 10*time.Second)
	if line := query("8"); !strings.Contains(line, "<unnamed>") {
		t.Errorf("db-prepared-statements = false not applied by the reload: %s", line)
	}
	mark = fileSize(targetLog)
	get(t, st.URL+"/artist?artist_id=eq.9")
	time.Sleep(300 * time.Millisecond) // nothing to poll for: the line must NOT come
	if got := string(readFrom(targetLog, mark)); strings.Contains(got, "/artist") {
		t.Errorf("log-level = info applied by a reload (catalogue says restart): %s", got)
	}
	if m := metric(t, st.AdminURL); m.Max != 10 {
		t.Errorf("db-pool = 4 applied by a reload (pool max %v)", m.Max)
	}
	if mainPID(t, l) != pid {
		t.Fatal("the target restarted on SIGUSR2")
	}
	// After a restart both apply: the restart is what they need.
	if _, err := l.restartTarget(ctx); err != nil {
		t.Fatal(err)
	}
	mark = fileSize(targetLog)
	get(t, st.URL+"/artist?artist_id=eq.9")
	logAfter(t, targetLog, mark, "/artist?artist_id=eq.9", 10*time.Second)
	if m := metric(t, st.AdminURL); m.Max != 4 {
		t.Errorf("db-pool = 4 after a restart: pool max %v", m.Max)
	}

	// Through Apply: a reloadable change reloads, anything else restarts.
	if err := l.Restore(ctx); err != nil {
		t.Fatal(err)
	}
	pid = mainPID(t, l)
	a, err := l.Apply(ctx, lab.Variant{Name: "off", PostgREST: map[string]string{"db-prepared-statements": "false"}})
	if err != nil {
		t.Fatal(err)
	}
	if mainPID(t, l) != pid || !hasNote(a, "config reload") {
		t.Errorf("reloadable variant: restarted (pid %d -> %d) or no note: %+v", pid, mainPID(t, l), a.Changes)
	}
	if line := query("10"); !strings.Contains(line, "<unnamed>") {
		t.Errorf("Apply's reload did not turn prepared statements off: %s", line)
	}
	a, err = l.Apply(ctx, lab.Variant{Name: "on", PostgREST: map[string]string{"db-prepared-statements": "true"}})
	if err != nil || mainPID(t, l) != pid || !hasNote(a, "config reload") {
		t.Errorf("back to on: %v, pid %d -> %d, %+v", err, pid, mainPID(t, l), a.Changes)
	}
	// [trials] fresh: the same reloadable change restarts the target.
	a, err = l.Apply(ctx, lab.Variant{Name: "off-fresh", PostgREST: map[string]string{"db-prepared-statements": "false"}, Restart: true})
	if err != nil || mainPID(t, l) == pid || hasNote(a, "config reload") {
		t.Errorf("reloadable variant with Restart: %v, pid %d -> %d (want a restart), %+v", err, pid, mainPID(t, l), a.Changes)
	}
	if line := query("11"); !strings.Contains(line, "<unnamed>") {
		t.Errorf("the restarted target does not have prepared statements off: %s", line)
	}
	pid = mainPID(t, l)
	a, err = l.Apply(ctx, lab.Variant{Name: "info", PostgREST: map[string]string{"log-level": "info"}})
	if err != nil || mainPID(t, l) == pid || hasNote(a, "config reload") {
		t.Errorf("log-level variant: %v, pid %d -> %d (want a restart), %+v", err, pid, mainPID(t, l), a.Changes)
	}
	if err := l.Restore(ctx); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(st.Config); string(b) != string(l.original) {
		t.Errorf("config not restored:\n%s", b)
	}
}

func hasNote(a lab.Applied, text string) bool {
	for _, c := range a.Changes {
		if c.Where == "note" && strings.Contains(c.To, text) {
			return true
		}
	}
	return false
}
