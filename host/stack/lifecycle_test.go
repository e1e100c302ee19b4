package stack

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/systemd"
)

// A target that exits at once fails Up with its log, and Up takes back
// the PostgreSQL it started.
func TestDyingTargetRollsBack(t *testing.T) {
	needPostgres(t)
	dir := stateDir(t)
	_, err := Up(context.Background(), Options{Dir: dir, Supervisor: systemd.ModeDirect, Postgrest: "/bin/false"})
	if err == nil || !strings.Contains(err.Error(), "did not become ready") {
		t.Fatalf("want a readiness error, got %v", err)
	}
	nothingLeft(t, dir)
}

// Ctrl-C during Up (a cancelled context) leaves nothing half-started: the
// context is cancelled as soon as initdb has begun to fill pg-data.
func TestCancelledUpLeavesNothing(t *testing.T) {
	needPostgres(t)
	dir := stateDir(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := Up(ctx, Options{Dir: dir, Supervisor: systemd.ModeDirect})
		done <- err
	}()
	started := filepath.Join(Facts{Dir: dir}.dataDir(), "PG_VERSION")
	deadline := time.Now().Add(60 * time.Second)
	for {
		if _, err := os.Stat(started); err == nil {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("Up returned (%v) before initdb wrote %s", err, started)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("initdb never wrote %s", started)
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("Up succeeded although it was cancelled during initdb")
		}
	case <-time.After(60 * time.Second):
		t.Fatal("Up did not return after the cancel")
	}
	nothingLeft(t, dir)
}

func TestSwitchingSupervisorNeedsDown(t *testing.T) {
	needPostgres(t)
	dir := stateDir(t)
	s := up(t, Options{Dir: dir, Supervisor: systemd.ModeDirect, NoTarget: true})
	defer s.Close()
	_, err := Up(context.Background(), Options{Dir: dir, Supervisor: systemd.ModeSystemd, NoTarget: true})
	oneLine(t, err, "runs under direct", "lab stack down")
	st, err := s.Status(context.Background())
	if err != nil || st.Postgres.State != "active" {
		t.Fatalf("the refused up touched the stack: %+v %v", st, err)
	}
	if os.Getuid() == 0 {
		if uid := procUID(t, st.Postgres.PID); uid == "0" {
			t.Errorf("PostgreSQL runs as root")
		}
	}
}

// A unit with the stack's name that the stack did not install is left alone.
func TestForeignUnitIsLeftAlone(t *testing.T) {
	needPostgres(t)
	dir := stateDir(t)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	ctrl, err := connect(context.Background(), dir, systemd.ModeDirect, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ctrl.Close()
	foreign := pgSpec(Facts{Dir: dir, PGBinDir: "/bin"}, pgUser{})
	foreign.ExecStart = []string{"/bin/sleep", "60"}
	if err := ctrl.Install(context.Background(), foreign); err != nil {
		t.Fatal(err)
	}
	defer ctrl.Uninstall(context.Background(), foreign.Name)
	_, err = Up(context.Background(), Options{Dir: dir, Supervisor: systemd.ModeDirect, NoTarget: true})
	oneLine(t, err, foreign.Name, "not made by this stack")
	if p, err := ctrl.Properties(context.Background(), foreign.Name); err != nil || p.LoadState == "not-found" {
		t.Errorf("the foreign unit was removed: %+v %v", p, err)
	}
}

func TestStateDirPostgresCannotEnter(t *testing.T) {
	needPostgres(t)
	if os.Getuid() != 0 {
		t.Skip("only root runs PostgreSQL as another user")
	}
	closed := filepath.Join(t.TempDir(), "closed") // t.TempDir's parent is 0700
	_, err := Up(context.Background(), Options{Dir: closed, Supervisor: systemd.ModeDirect, NoTarget: true})
	oneLine(t, err, "cannot enter", "chmod o+x")
	if _, serr := os.Stat(closed); !os.IsNotExist(serr) {
		t.Errorf("failed up left %s", closed)
	}
}

func procUID(t *testing.T, pid int) string {
	b, err := os.ReadFile(filepath.Join("/proc", itoa(pid), "status"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "Uid:") {
			return strings.Fields(l)[1]
		}
	}
	return ""
}
