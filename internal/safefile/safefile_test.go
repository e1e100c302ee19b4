package safefile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// victim is a file the planted entries point at; it must never change.
func victim(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(p, []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func unchanged(t *testing.T, p string) {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil || string(b) != "precious\n" {
		t.Fatalf("%s changed: %q %v", p, b, err)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o644 {
		t.Fatalf("%s mode changed to %04o", p, fi.Mode().Perm())
	}
}

// appendNew opens path with OpenAppend, writes a line and checks that path
// is now a regular file of ours, mode 0600, holding want.
func appendNew(t *testing.T, path, want string) {
	t.Helper()
	f, err := OpenAppend(path, 0o600)
	if err != nil {
		t.Fatalf("OpenAppend %s: %v", path, err)
	}
	if _, err := f.WriteString("line\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o600 {
		t.Fatalf("%s after OpenAppend: %v %v, want a regular 0600 file", path, fi, err)
	}
	if st := fi.Sys().(*syscall.Stat_t); int(st.Uid) != os.Geteuid() || st.Nlink != 1 {
		t.Fatalf("%s: uid %d, %d links", path, st.Uid, st.Nlink)
	}
	if b, _ := os.ReadFile(path); string(b) != want {
		t.Fatalf("%s holds %q, want %q", path, b, want)
	}
}

func TestOpenAppendOwnFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "log")
	appendNew(t, p, "line\n") // created
	if err := os.Chmod(p, 0o644); err != nil {
		t.Fatal(err)
	}
	appendNew(t, p, "line\nline\n") // appended, made private again
}

func TestOpenAppendReplacesPlantedEntries(t *testing.T) {
	dir := t.TempDir()
	v := victim(t)
	missing := filepath.Join(t.TempDir(), "missing")

	link := filepath.Join(dir, "link")
	if err := os.Symlink(v, link); err != nil {
		t.Fatal(err)
	}
	appendNew(t, link, "line\n")
	unchanged(t, v)

	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink(missing, dangling); err != nil {
		t.Fatal(err)
	}
	appendNew(t, dangling, "line\n")
	if _, err := os.Lstat(missing); err == nil {
		t.Fatalf("a dangling link made OpenAppend create %s", missing)
	}

	hard := filepath.Join(dir, "hard")
	if err := os.Link(v, hard); err != nil {
		t.Fatal(err)
	}
	appendNew(t, hard, "line\n")
	unchanged(t, v)

	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o666); err != nil {
		t.Fatal(err)
	}
	appendNew(t, fifo, "line\n") // and does not block

	if os.Geteuid() == 0 {
		other := filepath.Join(dir, "other")
		if err := os.WriteFile(other, []byte("theirs\n"), 0o666); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(other, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		appendNew(t, other, "line\n")
	}
}

func TestOpenAppendRefusesDirectory(t *testing.T) {
	d := filepath.Join(t.TempDir(), "d")
	if err := os.Mkdir(d, 0o755); err != nil {
		t.Fatal(err)
	}
	if f, err := OpenAppend(d, 0o600); err == nil {
		f.Close()
		t.Fatal("OpenAppend opened a directory")
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	v := victim(t)
	if b, err := ReadFile(v, os.Geteuid()); err != nil || string(b) != "precious\n" {
		t.Fatalf("own file: %q %v", b, err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(v, link); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(link, -1); !errors.Is(err, ErrUnsafe) {
		t.Fatalf("a symbolic link: %v, want ErrUnsafe", err)
	}
	if _, err := ReadFile(v, os.Geteuid()+1); !errors.Is(err, ErrUnsafe) {
		t.Fatalf("another owner: %v, want ErrUnsafe", err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o666); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(fifo, -1); !errors.Is(err, ErrUnsafe) {
		t.Fatalf("a FIFO: %v, want ErrUnsafe", err)
	}
}

func TestCheckPrivateDir(t *testing.T) {
	base := t.TempDir() // under the sticky /tmp
	if err := CheckPrivateDir(base); err != nil {
		t.Fatalf("a fresh temporary directory: %v", err)
	}
	open := filepath.Join(base, "open")
	if err := os.Mkdir(open, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(open, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := CheckPrivateDir(open); !errors.Is(err, ErrUnsafe) {
		t.Fatalf("a 0777 directory: %v, want ErrUnsafe", err)
	}
	if err := os.Chmod(open, 0o777|os.ModeSticky); err != nil {
		t.Fatal(err)
	}
	if err := CheckPrivateDir(open); !errors.Is(err, ErrUnsafe) {
		t.Fatalf("a sticky 1777 directory itself: %v, want ErrUnsafe", err)
	}
	below := filepath.Join(open, "below")
	if err := os.Mkdir(below, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := CheckPrivateDir(below); err != nil {
		t.Fatalf("our directory in a sticky one: %v", err)
	}
	if os.Geteuid() == 0 {
		if err := os.Chown(below, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		if err := CheckPrivateDir(below); !errors.Is(err, ErrUnsafe) {
			t.Fatalf("a directory of uid 65534: %v, want ErrUnsafe", err)
		}
		inner := filepath.Join(below, "inner")
		if err := os.Mkdir(inner, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := CheckPrivateDir(inner); !errors.Is(err, ErrUnsafe) {
			t.Fatalf("our directory inside one of uid 65534: %v, want ErrUnsafe", err)
		}
	}
}

// ReadResolved reads a path without a symbolic link in it, absolute or
// relative, and refuses one with a link at any component (the victim's
// content is never returned), a FIFO (without blocking) and a file over
// the bound.
func TestReadResolved(t *testing.T) {
	dir := t.TempDir()
	v := victim(t)
	if err := os.MkdirAll(filepath.Join(dir, "d", "e"), 0o755); err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(dir, "d", "e", "f")
	if err := os.WriteFile(plain, []byte("ok"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadResolved(plain, 2); err != nil || string(b) != "ok" {
		t.Fatalf("ReadResolved %s: %q %v", plain, b, err)
	}
	if _, err := ReadResolved(plain, 1); err == nil || !strings.Contains(err.Error(), "larger than 1 bytes") {
		t.Fatalf("over the bound: %v", err)
	}
	t.Chdir(dir)
	if b, err := ReadResolved("d/e/../e/f", 2); err != nil || string(b) != "ok" {
		t.Fatalf("relative: %q %v", b, err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadResolved(filepath.Join(dir, "fifo"), 10); err == nil || !strings.Contains(err.Error(), "a FIFO") {
		t.Fatalf("FIFO: %v", err)
	}
	// A link at the last component, then at a directory on the way.
	if err := os.Symlink(v, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Dir(v), filepath.Join(dir, "linkdir")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(dir, "link"), filepath.Join(dir, "linkdir", "victim"), "linkdir/victim"} {
		b, err := ReadResolved(p, 100)
		if err == nil || !errors.Is(err, ErrUnsafe) || !strings.Contains(err.Error(), "symbolic link") || len(b) > 0 {
			t.Errorf("ReadResolved %s: %q %v, want ErrUnsafe naming a symbolic link", p, b, err)
		}
	}
	if _, err := ReadResolved(filepath.Join(dir, "missing"), 10); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
}

// Append writes to a plain file (created when missing) and refuses a
// link, a dangling link, a hard link and a FIFO, leaving their targets as
// they were.
func TestAppend(t *testing.T) {
	dir := t.TempDir()
	v := victim(t)
	p := filepath.Join(dir, "summary")
	for range 2 {
		if err := Append(p, []byte("line\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if b, _ := os.ReadFile(p); string(b) != "line\nline\n" {
		t.Fatalf("%s holds %q", p, b)
	}
	link, dangling, hard, fifo := filepath.Join(dir, "link"), filepath.Join(dir, "dangling"), filepath.Join(dir, "hard"), filepath.Join(dir, "fifo")
	if err := os.Symlink(v, link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "through"), dangling); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(v, hard); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{link, dangling, hard, fifo} {
		if err := Append(q, []byte("evil\n"), 0o644); !errors.Is(err, ErrUnsafe) {
			t.Errorf("Append %s: %v, want ErrUnsafe", filepath.Base(q), err)
		}
	}
	unchanged(t, v)
	if _, err := os.Lstat(filepath.Join(dir, "through")); err == nil {
		t.Error("a file was created through the dangling link")
	}
}
