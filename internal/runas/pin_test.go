package runas_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/internal/runas"
)

// rootAndNobody is what these tests need: root (to switch users and to
// own the store) and the unprivileged account nobody.
func rootAndNobody(t *testing.T) runas.Account {
	t.Helper()
	if os.Geteuid() != 0 {
		labtest.Need(t, "checking what root runs as another user needs root")
	}
	a, err := runas.Lookup("nobody")
	if err != nil {
		labtest.Need(t, "no user nobody: %v", err)
	}
	return a
}

// shared is a fresh directory every user may enter, owned by root.
func shared(t *testing.T) string { return labtest.SharedDir(t) }

func testStore(t *testing.T) runas.Store {
	return runas.Store{Dir: filepath.Join(shared(t), "store")}
}

// Issue 52, finding 1: a binary that another user could replace is
// refused before anything of it runs, so the uid log of a hostile wrapper
// stays empty; what runs is asked as the target's account, never root.
func TestPinRefusesWhatAnotherUserCouldReplace(t *testing.T) {
	nobody := rootAndNobody(t)
	st := testStore(t)
	base := shared(t)
	chown := func(p string) {
		t.Helper()
		if err := os.Chown(p, nobody.UID, nobody.GID); err != nil {
			t.Fatal(err)
		}
	}
	// Theirs: a wrapper nobody owns, in a directory nobody owns (the
	// reviewer's /D/pgw), and one of root's in a directory anybody may write.
	theirDir := filepath.Join(base, "D")
	theirs := labtest.NewUIDWrapper(t, filepath.Join(theirDir, "pgw"), filepath.Join(base, "log", "theirs"), "/bin/true")
	chown(theirDir)
	chown(theirs.Path)
	open := filepath.Join(base, "open")
	if err := os.Mkdir(open, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(open, 0o777); err != nil {
		t.Fatal(err)
	}
	inOpen := labtest.NewUIDWrapper(t, filepath.Join(open, "pgw"), filepath.Join(base, "log", "open"), "/bin/true")
	for _, c := range []struct {
		path, want string
		w          labtest.UIDWrapper
	}{
		{theirs.Path, "belongs to uid", theirs},
		{inOpen.Path, "writable by group or others", inOpen},
	} {
		exe, err := nobody.Pin(c.path, st)
		if err == nil {
			_, err = nobody.Output(context.Background(), exe, nil, "--version")
			t.Errorf("Pin(%s) = %+v, want refused", c.path, exe)
		} else if !strings.Contains(err.Error(), c.want) {
			t.Errorf("Pin(%s): %v, want %q", c.path, err, c.want)
		}
		if n := len(c.w.UIDs(t)); n != 0 {
			t.Errorf("%s ran %d times before it was refused", c.path, n)
		}
	}
}

// Issue 52, findings 1 and 2: what runs is a copy of the bytes checked
// (a root-owned file in the store), asked as the target's account, with
// no privilege to gain; a link is followed once, at the check, so
// repointing it later changes nothing that runs, and a link to a file
// another user could replace is refused like the file itself.
func TestPinRunsACheckedCopyAsTheAccount(t *testing.T) {
	nobody := rootAndNobody(t)
	st := testStore(t)
	base := shared(t)
	good := labtest.NewUIDWrapper(t, filepath.Join(base, "bin", "postgrest"), filepath.Join(base, "log", "good"),
		"/bin/grep")
	closed := filepath.Join(base, "closed") // 0700: nobody cannot reach the original
	if err := os.Mkdir(closed, 0o700); err != nil {
		t.Fatal(err)
	}
	private := labtest.CopyExecutable(t, good.Path, filepath.Join(closed, "postgrest"))
	// The link lies in a directory nobody owns: as postgrest could, in /D.
	theirDir := filepath.Join(base, "D")
	if err := os.Mkdir(theirDir, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(theirDir, "pg")
	if err := os.Symlink(private, link); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(theirDir, nobody.UID, nobody.GID); err != nil {
		t.Fatal(err)
	}
	exe, err := nobody.Pin(link, st)
	if err != nil {
		t.Fatalf("Pin(%s): %v", link, err)
	}
	if exe.Resolved != private || !st.Contains(exe.Path) || !exe.Copied() {
		t.Fatalf("Pin(%s) = %+v, want %s copied into %s", link, exe, private, st.Dir)
	}
	if b, _ := os.ReadFile(exe.Path); !bytes.Equal(b, mustRead(t, private)) {
		t.Fatalf("the copy %s holds other bytes than %s", exe.Path, private)
	}
	if again, err := nobody.Pin(link, st); err != nil || again.Path != exe.Path {
		t.Errorf("Pin again = %+v %v, want the same copy %s", again, err, exe.Path)
	}
	out, err := nobody.Output(context.Background(), exe, nil, "-E", "^(Uid|NoNewPrivs|CapBnd):", "/proc/self/status")
	if err != nil {
		t.Fatalf("Output: %v", err)
	}
	for _, want := range []string{"NoNewPrivs:\t1", "CapBnd:\t0000000000000000", "Uid:\t65534"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the probe's /proc/self/status lacks %q:\n%s", want, out)
		}
	}
	if n := good.NoRoot(t); n != 1 {
		t.Errorf("the wrapper ran %d times, want once", n)
	}
	// Repointed, as its owner could: to a wrapper nobody owns.
	theirs := labtest.NewUIDWrapper(t, filepath.Join(theirDir, "evil"), filepath.Join(base, "log", "evil"), "/bin/true")
	if err := os.Chown(theirs.Path, nobody.UID, nobody.GID); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(theirs.Path, link); err != nil {
		t.Fatal(err)
	}
	if got, err := nobody.Pin(link, st); err == nil {
		t.Errorf("Pin of the repointed link = %+v, want refused", got)
	}
	if b, _ := os.ReadFile(exe.Path); !bytes.Equal(b, mustRead(t, private)) {
		t.Errorf("the pinned copy changed when the link was repointed")
	}
	if n := len(theirs.UIDs(t)); n != 0 {
		t.Errorf("the repointed link's wrapper ran %d times", n)
	}
	// A changed file is copied anew.
	if err := os.WriteFile(private, append(mustRead(t, private), "# changed\n"...), 0o755); err != nil {
		t.Fatal(err)
	}
	if again, err := nobody.Pin(private, st); err != nil || again.Path == exe.Path {
		t.Errorf("Pin after a change = %+v %v, want a new copy", again, err)
	}
}

// A store another user could change is refused: root keeps what it runs
// where only root can write.
func TestStoreRefusesADirectoryOthersCanChange(t *testing.T) {
	nobody := rootAndNobody(t)
	base := shared(t)
	bin := labtest.CopyExecutable(t, "/bin/true", filepath.Join(base, "bin", "true"))
	theirs := filepath.Join(base, "theirs")
	if err := os.Mkdir(theirs, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(theirs, nobody.UID, nobody.GID); err != nil {
		t.Fatal(err)
	}
	if exe, err := nobody.Pin(bin, runas.Store{Dir: filepath.Join(theirs, "store")}); err == nil || !strings.Contains(err.Error(), "belongs to uid") {
		t.Errorf("Pin into a store under %s = %+v, %v; want refused", theirs, exe, err)
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
