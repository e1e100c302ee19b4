package gitbuild

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/internal/runas"
)

func needRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		labtest.Need(t, "what a root lab builds as needs root")
	}
}

// Issue 52, finding 4: `--build 'echo $(id -u) $LAB_STORE >>log'` logged
// "0 postgres://store:<password>@...". A build now runs as an
// unprivileged user, unable to gain privileges, in a tree of its own, and
// sees only the allow-listed environment and what it was given.
func TestBuildRunsUnprivilegedWithAnAllowListedEnvironment(t *testing.T) {
	needRoot(t)
	pgrst := labtest.PostgREST(t)
	r := labtest.NewGitRepo(t)
	t.Setenv("LAB_STORE", "postgres://store:s3cret-store@127.0.0.1/store")
	t.Setenv("LAB_AGENT_TOKEN", "s3cret-token")
	o := testBuild(t, r)
	o.Ref = "main"
	o.Command = "id -u > uid.txt; env > env.txt; grep NoNewPrivs /proc/self/status > nnp.txt; " + labtest.BuildCommand
	o.Env = []string{"LAB_POSTGREST=" + pgrst}
	res, err := Build(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(o.CacheDir, r.Main, "src")
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(b))
	}
	if uid := read("uid.txt"); uid != strconv.Itoa(o.User.UID) || uid == "0" {
		t.Errorf("the build ran as uid %s, want %s", uid, o.User)
	}
	if nnp := read("nnp.txt"); !strings.HasSuffix(nnp, "1") {
		t.Errorf("the build's %q: want no_new_privs", nnp)
	}
	allowed := append(slices.Clone(BaseEnv), "HOME", "USER", "LOGNAME", "LAB_POSTGREST",
		"PWD", "OLDPWD", "SHLVL", "_") // the last four are the shell's own
	env := read("env.txt")
	for _, line := range strings.Split(env, "\n") {
		name, _, _ := strings.Cut(line, "=")
		if !slices.Contains(allowed, name) {
			t.Errorf("the build saw %s, which the allow-list does not name", name)
		}
	}
	if strings.Contains(env, "s3cret") {
		t.Errorf("the build saw a secret of the lab's environment:\n%s", env)
	}
	if fi, err := os.Stat(src); err != nil || int(fi.Sys().(*syscall.Stat_t).Uid) != o.User.UID {
		t.Errorf("the tree %s is not the build user's: %v", src, err)
	}
	fi, err := os.Stat(res.Path)
	if err != nil {
		t.Fatal(err)
	}
	if st := fi.Sys().(*syscall.Stat_t); st.Uid != 0 || fi.Mode().Perm() != 0o755 || !(runas.Store{Dir: o.Store}).Contains(res.Path) {
		t.Errorf("the artifact %s: uid %d mode %04o, want root's 0755 copy in the store", res.Path, st.Uid, fi.Mode().Perm())
	}
	if res.User != o.User.Name {
		t.Errorf("Result.User = %q, want %q", res.User, o.User.Name)
	}
	if _, err := ParseEnv("PATH,LAB_STORE"); err == nil {
		t.Error("--build-env LAB_STORE accepted")
	}
	if _, err := Build(context.Background(), Options{Repo: r.Dir, Ref: "main", Command: "true", CacheDir: o.CacheDir,
		User: runas.Account{Name: "root", UID: 0}}); err == nil || !strings.Contains(err.Error(), "never as root") {
		t.Errorf("a build as root: %v, want refused", err)
	}
}

// Issue 52, finding 3: a cache another user owns was trusted (a planted
// built.json naming a script ran as root), and root followed links in it
// (build.log overwrote a root-only file; lock created a link's target).
// Now such a cache is refused before anything runs; in the lab's own
// cache a marker naming a file outside the store is not a build, and the
// log and the lock are never opened through a link.
func TestBuildCacheOthersControlIsRefused(t *testing.T) {
	needRoot(t)
	pgrst := labtest.PostgREST(t)
	r := labtest.NewGitRepo(t)
	o := testBuild(t, r)
	o.Ref = "main"
	count := countFile(t)
	o.Env = []string{"LAB_POSTGREST=" + pgrst, "BUILD_COUNT=" + count}
	base := filepath.Dir(o.CacheDir)

	theirs := filepath.Join(base, "theirs")
	if err := os.Mkdir(theirs, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(theirs, o.User.UID, o.User.GID); err != nil {
		t.Fatal(err)
	}
	bad := o
	bad.CacheDir = theirs
	if _, err := Build(context.Background(), bad); err == nil || !strings.Contains(err.Error(), "belongs to uid") {
		t.Errorf("a build in a cache uid %d owns: %v, want refused", o.User.UID, err)
	}
	if b, _ := os.ReadFile(count); len(b) != 0 {
		t.Errorf("the build ran in a cache another user owns: %q", b)
	}

	// Planted in the lab's own cache (as only root could now).
	dir := filepath.Join(o.CacheDir, r.Main)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	evil := labtest.NewUIDWrapper(t, filepath.Join(base, "D", "evil.sh"), filepath.Join(base, "evil.log"), "/bin/true")
	planted := `{"sha":"` + r.Main + `","command":"` + labtest.BuildCommand + `","user":"` + o.User.Name + `","path":"` + evil.Path + `"}`
	if err := os.WriteFile(filepath.Join(dir, "built.json"), []byte(planted), 0o644); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(base, "root-only")
	if err := os.WriteFile(secret, []byte("keep\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	lockTarget := filepath.Join(base, "lock-target")
	for link, target := range map[string]string{"build.log": secret, "lock": lockTarget} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	res, err := Build(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Cached || res.Path == evil.Path || !(runas.Store{Dir: o.Store}).Contains(res.Path) {
		t.Errorf("Build = %+v, want a fresh build kept in the store, not the planted marker's %s", res, evil.Path)
	}
	if n := len(evil.UIDs(t)); n != 0 {
		t.Errorf("the planted marker's script ran %d times", n)
	}
	if b, _ := os.ReadFile(secret); string(b) != "keep\n" {
		t.Errorf("root wrote through a planted build.log link: %q", b)
	}
	if _, err := os.Lstat(lockTarget); err == nil {
		t.Error("root created a planted lock link's target")
	}
}
