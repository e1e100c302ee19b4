package stack

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
)

// rootOnly is a file in a 0700 directory of the test's user and a missing
// path next to it: what a link planted by PostgreSQL's user points at.
func rootOnly(t *testing.T) (string, string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "root-only")
	if err := os.WriteFile(p, []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p, filepath.Join(dir, "missing")
}

func stillPrecious(t *testing.T, victim, missing string) {
	t.Helper()
	b, err := os.ReadFile(victim)
	if err != nil || string(b) != "precious\n" {
		t.Fatalf("%s changed: %q %v", victim, b, err)
	}
	fi, _ := os.Stat(victim)
	if st := fi.Sys().(*syscall.Stat_t); int(st.Uid) != os.Geteuid() || fi.Mode().Perm() != 0o644 {
		t.Fatalf("%s is now uid %d mode %04o", victim, st.Uid, fi.Mode().Perm())
	}
	if _, err := os.Lstat(missing); err == nil {
		t.Fatalf("%s was created through a link", missing)
	}
}

// owner is the stack's PostgreSQL user: postgres as root, else the test's.
func owner(t *testing.T) pgUser {
	t.Helper()
	if os.Geteuid() != 0 {
		labtest.Need(t, "PostgreSQL's user differs from the lab's only when the lab runs as root (uid %d)", os.Geteuid())
	}
	u, err := lookupPGUser()
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// TestClusterFilesReplaceLinks: pg_hba.conf and lab.conf are written into
// pg-data, which PostgreSQL's user owns: a link it planted there is
// replaced by a file of its own, never followed (finding 2b of round 3).
func TestClusterFilesReplaceLinks(t *testing.T) {
	u := owner(t)
	dir := t.TempDir()
	victim, missing := rootOnly(t)
	for name, to := range map[string]string{"pg_hba.conf": victim, labConfName: missing} {
		p := filepath.Join(dir, name)
		if err := os.Symlink(to, p); err != nil {
			t.Fatal(err)
		}
		if err := u.writePrivate(p, "x = 1\n"); err != nil {
			t.Fatalf("writePrivate %s: %v", name, err)
		}
		fi, err := os.Lstat(p)
		if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o600 {
			t.Fatalf("%s: %v %v, want a regular 0600 file", p, fi, err)
		}
		if st := fi.Sys().(*syscall.Stat_t); int(st.Uid) != u.uid || int(st.Gid) != u.gid {
			t.Fatalf("%s belongs to %d:%d, want %d:%d", p, st.Uid, st.Gid, u.uid, u.gid)
		}
	}
	stillPrecious(t, victim, missing)
	conf := filepath.Join(dir, "postgresql.conf")
	if err := os.Symlink(victim, conf); err != nil {
		t.Fatal(err)
	}
	if err := u.appendFile(conf, "include 'x'\n"); err == nil {
		t.Fatal("appendFile read through a link")
	}
	stillPrecious(t, victim, missing)
}

// TestLogDirTakenBack: logs/ of a stack brought up before belonged to
// PostgreSQL's user, who could plant links where root opens the logs.
// Open takes it back and removes what is not a plain file of the lab's.
func TestLogDirTakenBack(t *testing.T) {
	u := owner(t)
	logs := filepath.Join(t.TempDir(), "logs")
	if err := os.Mkdir(logs, 0o755); err != nil {
		t.Fatal(err)
	}
	victim, missing := rootOnly(t)
	if err := os.Symlink(victim, filepath.Join(logs, "target.log")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(missing, filepath.Join(logs, "postgres.log")); err != nil {
		t.Fatal(err)
	}
	keep := filepath.Join(logs, "ghc-rts-stats.log")
	if err := os.WriteFile(keep, []byte("stats\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{logs, filepath.Join(logs, "target.log"), filepath.Join(logs, "postgres.log")} {
		if err := os.Lchown(p, u.uid, u.gid); err != nil {
			t.Fatal(err)
		}
	}
	if err := secureLogDir(logs); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Lstat(logs)
	if st := fi.Sys().(*syscall.Stat_t); int(st.Uid) != os.Geteuid() || fi.Mode().Perm() != 0o755 {
		t.Fatalf("logs/ is uid %d mode %04o, want the lab's, 0755", st.Uid, fi.Mode().Perm())
	}
	for _, n := range []string{"target.log", "postgres.log"} {
		if _, err := os.Lstat(filepath.Join(logs, n)); err == nil {
			t.Errorf("the planted %s is still there", n)
		}
	}
	if b, err := os.ReadFile(keep); err != nil || string(b) != "stats\n" {
		t.Errorf("the lab's own file went: %q %v", b, err)
	}
	stillPrecious(t, victim, missing)
}
