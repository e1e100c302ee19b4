package stack

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/systemd"
)

// cycle runs up, up again (reuse), status and down twice in a row on one
// state dir, checking that PostgreSQL answers over TCP and the Unix socket,
// that the target is ready, and that down stops every process.
func cycle(t *testing.T, supervisor systemd.Mode, wantKind systemd.Kind) {
	needPostgres(t)
	dir := stateDir(t)
	o := Options{Dir: dir, Supervisor: supervisor}
	ctx := context.Background()
	for round := 1; round <= 2; round++ {
		s := up(t, o)
		st, err := s.Status(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if st.Supervisor != wantKind || !st.Running() || st.Postgres.PID <= 0 {
			t.Fatalf("round %d: status %+v", round, st)
		}
		if !strings.Contains(st.Postgres.Name, unitPrefix(dir)) {
			t.Errorf("unit %s does not carry the state dir hash %s", st.Postgres.Name, unitPrefix(dir))
		}
		query(t, st.TCPURI)
		query(t, st.UnixURI)
		query(t, st.AdminURI)
		if st.Target == nil {
			t.Fatalf("no target: %s", st.NoTarget)
		}
		if code := httpStatus(t, st.AdminURL+"/ready"); code != 200 {
			t.Errorf("%s/ready: %d", st.AdminURL, code)
		}
		if b, err := os.ReadFile(st.Config); err != nil || !strings.Contains(string(b), "db-anon-role") {
			t.Errorf("config %s: %v %q", st.Config, err, b)
		}

		again := up(t, o) // idempotent: reuses what runs
		st2, err := again.Status(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if st2.Postgres.PID != st.Postgres.PID || st2.Target.PID != st.Target.PID || st2.PGPort != st.PGPort {
			t.Errorf("second up restarted something: %+v then %+v", st, st2)
		}
		again.Close()

		opened, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		if err := opened.Down(ctx, false); err != nil {
			t.Fatalf("round %d: down: %v", round, err)
		}
		after, err := opened.Status(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if after.Postgres.State != "not-installed" || after.Target.State != "not-installed" {
			t.Errorf("after down: %+v", after)
		}
		deadline := time.Now().Add(5 * time.Second)
		for (alive(st.Postgres.PID) || alive(st.Target.PID)) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if alive(st.Postgres.PID) || alive(st.Target.PID) {
			t.Errorf("round %d: processes still run after down", round)
		}
		if _, err := os.Stat(filepath.Join(dir, "pg-data", "PG_VERSION")); err != nil {
			t.Errorf("down without purge removed the data dir: %v", err)
		}
		opened.Close()
		s.Close()
	}
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Down(ctx, true); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("purge left %s: %v", dir, err)
	}
}

func TestUpStatusDownTwiceDirect(t *testing.T) { cycle(t, systemd.ModeDirect, systemd.KindDirect) }

func TestUpStatusDownTwiceSystemd(t *testing.T) {
	labtest.RequireSystemd(t)
	cycle(t, systemd.ModeSystemd, systemd.KindSystemdUser)
}

func TestTwoStacksDoNotCollide(t *testing.T) {
	needPostgres(t)
	a, b := stateDir(t), stateDir(t)
	if pgUnitName(a) == pgUnitName(b) || targetUnitName(a) == targetUnitName(b) {
		t.Fatal("unit names collide")
	}
	sa := up(t, Options{Dir: a, Supervisor: systemd.ModeDirect, NoTarget: true})
	sb := up(t, Options{Dir: b, Supervisor: systemd.ModeDirect, NoTarget: true})
	ctx := context.Background()
	if err := sa.Down(ctx, true); err != nil {
		t.Fatal(err)
	}
	st, err := sb.Status(ctx)
	if err != nil || st.Postgres.State != "active" {
		t.Fatalf("down of one stack touched the other: %+v %v", st, err)
	}
	query(t, st.AdminURI)
}
