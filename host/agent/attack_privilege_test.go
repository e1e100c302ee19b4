package agent

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/internal/runas"
)

// targetProcess is the target's main process: its user id and executable.
func (r *rig) targetProcess(t *testing.T) (uid int, exe string) {
	t.Helper()
	ctx := context.Background()
	p, err := r.st.Controller.Properties(ctx, r.st.Target.Name)
	if err != nil || p.MainPID == 0 {
		t.Fatalf("target: %+v %v", p, err)
	}
	uid, err = runas.ProcessUID(ctx, p.MainPID)
	if err != nil {
		t.Fatal(err)
	}
	exe, err = os.Readlink("/proc/" + strconv.Itoa(p.MainPID) + "/exe")
	if err != nil {
		t.Fatal(err)
	}
	return uid, exe
}

// The target runs as root no more (round 4, finding 1): the target runs as
// its own unprivileged user, and so does a binary a variant names, also
// one the target's user cannot reach (it runs from a copy of the lab's).
func attackTargetNeverRoot(t *testing.T, r *rig) {
	want, err := runas.Lookup(r.st.TargetUser)
	if err != nil || want.UID == 0 {
		t.Fatalf("the stack's target user %q: %+v %v", r.st.TargetUser, want, err)
	}
	if uid, _ := r.targetProcess(t); uid != want.UID {
		t.Fatalf("the target runs as uid %d, want %s", uid, want)
	}
	closed, err := os.MkdirTemp("", "closed-") // 0700: the target's user cannot enter it
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(closed) })
	bin := labtest.CopyExecutable(t, r.st.Binary, filepath.Join(closed, "postgrest"))
	pol := DefaultPolicy()
	pol.Binaries = []string{bin}
	a := r.agent(t, pol, 0)
	a.open()
	defer a.close()
	if status, body := a.apply(`{"name":"other-build","binary":` + jsonString(bin) + `}`); status != http.StatusOK {
		t.Fatalf("apply a variant's binary: %d %.300s", status, body)
	}
	uid, exe := r.targetProcess(t)
	if uid != want.UID {
		t.Errorf("the variant's binary runs as uid %d, want %s", uid, want)
	}
	if store, err := runas.DefaultStore(); err != nil || !store.Contains(exe) {
		t.Errorf("the variant's binary runs from %s, want the lab's copy in its store %s (%v)", exe, store.Dir, err)
	}
}

// A variant's binary that another user could replace is refused (round 4,
// finding 1), even where the agent's config lists it: one another user
// owns, and one in a directory others may write.
func attackBinaryOthersCanReplace(t *testing.T, r *rig) {
	nobody, err := runas.Lookup("nobody")
	if err != nil {
		t.Fatal(err)
	}
	open := t.TempDir()
	if err := os.Chmod(open, 0o777); err != nil {
		t.Fatal(err)
	}
	planted := labtest.CopyExecutable(t, r.st.Binary, filepath.Join(open, "postgrest"))
	theirs := labtest.CopyExecutable(t, r.st.Binary, filepath.Join(t.TempDir(), "theirs", "postgrest"))
	if err := os.Chown(theirs, nobody.UID, nobody.GID); err != nil {
		t.Fatal(err)
	}
	_, before := r.targetProcess(t)
	pol := DefaultPolicy()
	pol.Binaries = []string{planted, theirs}
	a := r.agent(t, pol, 0)
	a.open()
	defer a.close()
	for _, c := range []struct{ bin, want string }{{planted, "writable by group or others"}, {theirs, "belongs to uid"}} {
		status, body := a.apply(`{"name":"planted","binary":` + jsonString(c.bin) + `}`)
		if status != http.StatusForbidden || !strings.Contains(body, c.want) {
			t.Errorf("binary %s: %d %.300s, want 403 saying %q", c.bin, status, body, c.want)
		}
	}
	if _, exe := r.targetProcess(t); exe != before {
		t.Errorf("the target runs %s after refused binaries, want %s as before", exe, before)
	}
}
