package configs

import (
	"bytes"
	"errors"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// testOwner is a non-root owner for fixture files when running as root
// (so "same owner" is checked against something other than the default).
func testOwner(t *testing.T) (int, int) {
	if os.Getuid() != 0 {
		return os.Getuid(), os.Getgid()
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		u, err = user.Lookup("nobody")
	}
	if err != nil {
		return 0, 0
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return uid, gid
}

func writeFixture(t *testing.T, path string, data []byte) (uid, gid int) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o640); err != nil {
		t.Fatal(err)
	}
	uid, gid = testOwner(t)
	if err := os.Chown(path, uid, gid); err != nil {
		t.Fatal(err)
	}
	return uid, gid
}

func assertSame(t *testing.T, path string, want []byte, mode os.FileMode, uid, gid int) {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s not restored byte for byte:\n%q\nwant\n%q", path, got, want)
	}
	st, _ := os.Stat(path)
	sys := st.Sys().(*syscall.Stat_t)
	if st.Mode() != mode || int(sys.Uid) != uid || int(sys.Gid) != gid {
		t.Fatalf("%s: mode %v owner %d:%d, want %v %d:%d", path, st.Mode(), sys.Uid, sys.Gid, mode, uid, gid)
	}
}

func TestJournalWriteRestore(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "postgrest.conf")
	orig, _ := os.ReadFile("testdata/golden/tutorial.conf")
	uid, gid := writeFixture(t, path, orig)
	j, err := OpenJournal(filepath.Join(dir, "state"))
	if err != nil {
		t.Fatal(err)
	}
	for _, pool := range []int64{4, 8} {
		f, _ := ParseFile(path)
		_ = f.Set("db-pool", Int(pool))
		if err := j.WriteFile(path, f.Bytes()); err != nil {
			t.Fatal(err)
		}
		// The rewrite keeps the file's mode and owner.
		st, _ := os.Stat(path)
		if st.Mode() != 0o640 || int(st.Sys().(*syscall.Stat_t).Uid) != uid {
			t.Fatalf("rewrite changed mode/owner: %v", st.Mode())
		}
	}
	if f, _ := ParseFile(path); f == nil {
		t.Fatal("rewritten file does not parse")
	} else if v, _ := f.Get("db-pool"); v.String() != "8" {
		t.Fatalf("db-pool = %s", v)
	}
	p := j.Pending()
	if len(p) != 1 || p[0].Path != path || !bytes.Equal(p[0].Original, orig) {
		t.Fatalf("pending = %+v (want the first original)", p)
	}
	done, err := j.Restore()
	if err != nil || len(done) != 1 {
		t.Fatalf("restore: %v %v", done, err)
	}
	assertSame(t, path, orig, 0o640, uid, gid)
	if len(j.Pending()) != 0 {
		t.Fatal("journal not cleared")
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".*lab-tmp*")); len(m) != 0 {
		t.Fatalf("temp files left: %v", m)
	}
}

func TestJournalNewFileIsRemoved(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "new.conf")
	j, _ := OpenJournal(filepath.Join(dir, "state"))
	if err := j.WriteFile(path, []byte("db-pool = 1\n")); err != nil {
		t.Fatal(err)
	}
	if _, err := j.Restore(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("file the lab created still exists: %v", err)
	}
}

func TestJournalConflict(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "postgrest.conf")
	orig := []byte("db-pool = 10\nlog-level = \"error\"\n")
	writeFixture(t, path, orig)
	j, _ := OpenJournal(filepath.Join(dir, "state"))
	if err := j.WriteFile(path, []byte("db-pool = 4\nlog-level = \"error\"\n")); err != nil {
		t.Fatal(err)
	}
	// Someone edits the file behind the lab's back.
	theirs := []byte("db-pool = 4\nlog-level = \"info\"\n")
	os.WriteFile(path, theirs, 0o640)

	err := j.WriteFile(path, []byte("db-pool = 2\n"))
	var ce *ConflictError
	if !errors.As(err, &ce) || !strings.Contains(ce.Detail, "line 2") || !strings.Contains(ce.Detail, `log-level = \"info\"`) {
		t.Fatalf("want a ConflictError naming line 2, got %v", err)
	}
	if _, err := j.Restore(); !errors.As(err, &ce) {
		t.Fatalf("restore over a foreign change: %v", err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, theirs) {
		t.Fatal("foreign change overwritten")
	}
	if len(j.Pending()) != 1 {
		t.Fatal("entry dropped despite the conflict")
	}
	if err := j.Forget(path); err != nil || len(j.Pending()) != 0 {
		t.Fatalf("forget: %v", err)
	}
}

func TestJournalRefusesTamperedEntry(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "postgrest.conf")
	writeFixture(t, path, []byte("db-pool = 10\n"))
	j, _ := OpenJournal(filepath.Join(dir, "state"))
	if err := j.WriteFile(path, []byte("db-pool = 1\n")); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(j.Dir(), "*.json"))
	b, _ := os.ReadFile(files[0])
	b = bytes.Replace(b, []byte(`"original_sha256": "`), []byte(`"original_sha256": "00`), 1)
	os.WriteFile(files[0], b, 0o600)
	if p := j.Pending(); len(p) != 1 || p[0].Kind != "corrupt" {
		t.Fatalf("pending = %+v", p)
	}
	if _, err := j.Restore(); err == nil || !strings.Contains(err.Error(), "unreadable") {
		t.Fatalf("restore from a corrupt entry: %v", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "db-pool = 1\n" {
		t.Fatalf("file touched: %q", got)
	}
}

func TestJournalRefusesNonRegular(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.conf")
	os.WriteFile(target, []byte("a = 1\n"), 0o644)
	link := filepath.Join(dir, "link.conf")
	os.Symlink(target, link)
	j, _ := OpenJournal(filepath.Join(dir, "state"))
	if err := j.WriteFile(link, []byte("a = 2\n")); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("symlink: %v", err)
	}
}
