package stack

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/pgbin"
	"github.com/pgrst-lab/pgrst-lab/systemd"
)

// nothingLeft checks that a failed Up left no state dir and no units behind.
func nothingLeft(t *testing.T, dir string) {
	t.Helper()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("failed up left %s behind (%v)", dir, err)
	}
	for _, unit := range []string{pgUnitName(dir), targetUnitName(dir)} {
		ctrl, err := connect(context.Background(), dir, systemd.ModeDirect, nil)
		if err != nil {
			t.Fatal(err)
		}
		if p, err := ctrl.Properties(context.Background(), unit); err == nil && p.LoadState != "not-found" {
			t.Errorf("failed up left unit %s (%s)", unit, p.ActiveState)
		}
		ctrl.Close()
	}
	os.RemoveAll(dir)
}

func occupy(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l.Addr().(*net.TCPAddr).Port
}

func TestOccupiedPGPort(t *testing.T) {
	needPostgres(t)
	dir := stateDir(t)
	_, err := Up(context.Background(), Options{Dir: dir, Supervisor: systemd.ModeDirect, PGPort: occupy(t)})
	oneLine(t, err, "in use", "--pg-port")
	nothingLeft(t, dir)
}

// A target port in use fails after PostgreSQL started: Up must stop it again.
func TestOccupiedTargetPortStopsPostgresAgain(t *testing.T) {
	needPostgres(t)
	dir := stateDir(t)
	_, err := Up(context.Background(), Options{Dir: dir, Supervisor: systemd.ModeDirect, Port: occupy(t), Postgrest: "/bin/true"})
	oneLine(t, err, "in use", "--port")
	nothingLeft(t, dir)
}

func TestMissingPostgres(t *testing.T) {
	dir := stateDir(t)
	_, err := Up(context.Background(), Options{Dir: dir, Supervisor: systemd.ModeDirect, PGBinDir: "/nonexistent/bin"})
	oneLine(t, err, "PostgreSQL not found", "LAB_PG_BINDIR")
	nothingLeft(t, dir)
}

func TestUnusableStateDir(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, []byte("x"), 0o644)
	_, err := Up(context.Background(), Options{Dir: file, Supervisor: systemd.ModeDirect})
	oneLine(t, err, "not a directory", "--dir")
	_, err = Open(file)
	oneLine(t, err, "not a directory")

	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, FactsFile), []byte("{not json"), 0o644)
	_, err = Up(context.Background(), Options{Dir: dir, Supervisor: systemd.ModeDirect})
	oneLine(t, err, FactsFile, "not valid")
	if b, _ := os.ReadFile(filepath.Join(dir, FactsFile)); string(b) != "{not json" {
		t.Errorf("stack.json was changed: %q", b)
	}

	_, err = Open(t.TempDir())
	oneLine(t, err, "no lab stack", "lab stack up")

	_, err = Up(context.Background(), Options{Dir: t.TempDir(), Supervisor: "sometimes"})
	oneLine(t, err, "allowed: auto, systemd, direct")
}

func TestNoTargetAvailableBringsUpPostgresOnly(t *testing.T) {
	needPostgres(t)
	bin, err := pgbin.Find("")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("LAB_PG_BINDIR", bin)
	t.Setenv("PATH", "") // no postgrest, no postgrest-mini, no go
	t.Chdir(t.TempDir()) // not in the source tree
	dir := stateDir(t)
	s := up(t, Options{Dir: dir, Supervisor: systemd.ModeDirect})
	st, err := s.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if st.Target != nil || st.Postgres.State != "active" {
		t.Fatalf("status %+v", st)
	}
	if want := "no target available"; len(st.NoTarget) < len(want) || st.NoTarget[:len(want)] != want {
		t.Errorf("NoTarget = %q", st.NoTarget)
	}
	query(t, st.AdminURI)
}
