package agent

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/internal/runas"
	"github.com/pgrst-lab/pgrst-lab/systemd"
)

// Issue 52, finding 1 through the agent: a variant's binary that another
// user could replace, listed in AGENT.toml, is refused with 403 before any
// of it runs (its version was asked as root first): the wrapper's uid log
// stays empty.
func attackBinaryProbedBeforeCheck(t *testing.T, r *rig) {
	nobody, err := runas.Lookup("nobody")
	if err != nil {
		t.Fatal(err)
	}
	base := labtest.SharedDir(t)
	d := filepath.Join(base, "D")
	evil := labtest.NewUIDWrapper(t, filepath.Join(d, "pgw"), filepath.Join(base, "evil.log"), r.st.Binary)
	for _, p := range []string{d, evil.Path} {
		if err := os.Chown(p, nobody.UID, nobody.GID); err != nil {
			t.Fatal(err)
		}
	}
	pol := DefaultPolicy()
	pol.Binaries = []string{evil.Path}
	a := r.agent(t, pol, 0)
	a.open()
	defer a.close()
	if status, body := a.apply(`{"name":"evil","binary":` + jsonString(evil.Path) + `}`); status != http.StatusForbidden || !strings.Contains(body, "belongs to uid") {
		t.Errorf("apply the wrapper: %d %.300s, want 403 for its owner", status, body)
	}
	if n := len(evil.UIDs(t)); n != 0 {
		t.Errorf("the wrapper ran %d times before it was refused (uids %v)", n, evil.UIDs(t))
	}
}

// Issue 52, finding 2 through the agent: a listed binary that is a link in
// a directory another user owns runs as root's copy of what it led to when
// checked; repointed at that user's script, the next apply is refused and
// the script never runs, as root or as the target.
func attackBinaryLinkRepointed(t *testing.T, r *rig) {
	nobody, err := runas.Lookup("nobody")
	if err != nil {
		t.Fatal(err)
	}
	base := labtest.SharedDir(t)
	own := labtest.CopyExecutable(t, r.st.Binary, filepath.Join(base, "bin", "postgrest"))
	d := filepath.Join(base, "D")
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(d, "pg")
	if err := os.Symlink(own, link); err != nil {
		t.Fatal(err)
	}
	evil := labtest.NewUIDWrapper(t, filepath.Join(d, "evil.sh"), filepath.Join(r.st.Dir, "evil.log"), r.st.Binary)
	for _, p := range []string{d, evil.Path} {
		if err := os.Chown(p, nobody.UID, nobody.GID); err != nil {
			t.Fatal(err)
		}
	}
	pol := DefaultPolicy()
	pol.Binaries = []string{link}
	a := r.agent(t, pol, 0)
	a.open()
	defer a.close()
	if status, body := a.apply(`{"name":"linked","binary":` + jsonString(link) + `}`); status != http.StatusOK {
		t.Fatalf("apply the link: %d %.300s", status, body)
	}
	store, err := runas.DefaultStore()
	if err != nil {
		t.Fatal(err)
	}
	if _, exe := r.targetProcess(t); !store.Contains(exe) {
		t.Errorf("the link's binary runs from %s, want root's copy in %s", exe, store.Dir)
	}
	if err := os.Remove(link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(evil.Path, link); err != nil {
		t.Fatal(err)
	}
	if status, body := a.apply(`{"name":"repointed","binary":` + jsonString(link) + `, "postgrest":{"db-pool":"3"}}`); status != http.StatusForbidden || !strings.Contains(body, "belongs to uid") {
		t.Errorf("apply the repointed link: %d %.300s, want 403", status, body)
	}
	if n := len(evil.UIDs(t)); n != 0 {
		t.Errorf("the repointed link's script ran %d times (uids %v)", n, evil.UIDs(t))
	}
}

// Issue 52, finding 6: the target's units had no sandbox. The target now
// runs with no_new_privs and an empty capability bounding set under both
// supervisors, and under systemd in a mount namespace of its own (a
// read-only system, no homes, a /tmp of its own).
func attackTargetSandboxed(t *testing.T, r *rig) {
	p, err := r.st.Controller.Properties(context.Background(), r.st.Target.Name)
	if err != nil || p.MainPID == 0 {
		t.Fatalf("target: %+v %v", p, err)
	}
	if v := labtest.ProcStatus(t, p.MainPID, "NoNewPrivs"); v != "1" {
		t.Errorf("the target's NoNewPrivs is %s, want 1", v)
	}
	if v := labtest.ProcStatus(t, p.MainPID, "CapBnd"); v != "0000000000000000" {
		t.Errorf("the target's capability bounding set is %s, want empty", v)
	}
	if r.st.Controller.Kind() == systemd.KindDirect {
		return // no mount namespace: SECURITY.md says so
	}
	theirs, err1 := os.Readlink(fmt.Sprintf("/proc/%d/ns/mnt", p.MainPID))
	ours, err2 := os.Readlink("/proc/self/ns/mnt")
	if err1 != nil || err2 != nil || theirs == ours {
		t.Errorf("the target's mount namespace %q is the lab's %q (%v %v), want its own", theirs, ours, err1, err2)
	}
	mounts, err := os.ReadFile(fmt.Sprintf("/proc/%d/mountinfo", p.MainPID))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{" / / ro,", " /tmp "} {
		if !strings.Contains(string(mounts), want) {
			t.Errorf("the target's mounts lack %q:\n%s", want, mounts)
		}
	}
}

// A token holder cannot take the sandbox off: a variant's sandbox = false
// (for measuring the sandbox's cost in a local run) is refused with 403,
// and the target keeps running confined.
func attackSandboxCannotBeLowered(t *testing.T, r *rig) {
	a := r.agent(t, DefaultPolicy(), 0)
	a.open()
	defer a.close()
	if status, body := a.apply(`{"name":"bare","unsandboxed":true}`); status != http.StatusForbidden || !strings.Contains(body, "sandbox") {
		t.Errorf("apply sandbox = false: %d %.300s, want 403", status, body)
	}
	attackTargetSandboxed(t, r)
}
