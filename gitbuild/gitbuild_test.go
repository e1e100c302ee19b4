package gitbuild

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/internal/runas"
)

func TestResolveAndLatestRelease(t *testing.T) {
	r := labtest.NewGitRepo(t)
	ctx := context.Background()
	for ref, want := range map[string]string{"HEAD": r.Feature, "main": r.Main, "v1.10.0": r.Release,
		"broken": r.Broken, r.Main[:7]: r.Main, "feature~1": r.Main} {
		got, err := Resolve(ctx, r.Dir, ref)
		if err != nil || got != want {
			t.Errorf("Resolve(%s) = %q, %v; want %s", ref, got, err, want)
		}
	}
	for _, ref := range []string{"nosuch", "--all", ""} {
		if sha, err := Resolve(ctx, r.Dir, ref); err == nil {
			t.Errorf("Resolve(%q) = %s, want an error", ref, sha)
		}
	}
	if tag, err := LatestRelease(ctx, r.Dir, ""); err != nil || tag != "v1.10.0" {
		t.Errorf("LatestRelease = %q, %v; want v1.10.0 (after v1.9.0 in version order)", tag, err)
	}
	if _, err := LatestRelease(ctx, t.TempDir(), ""); err == nil {
		t.Error("LatestRelease outside a repository: no error")
	}
}

// testBuild is a build's options in directories of the test's own: a
// cache and a store every user may enter, built as nobody when the tests
// run as root (a build never runs as root), else as the tests' user.
func testBuild(t *testing.T, r labtest.GitRepo) Options {
	t.Helper()
	base := labtest.SharedDir(t)
	o := Options{Repo: r.Dir, Command: labtest.BuildCommand, CacheDir: filepath.Join(base, "builds"), Store: filepath.Join(base, "bin")}
	if os.Geteuid() == 0 {
		nobody, err := runas.Lookup("nobody")
		if err != nil {
			t.Fatalf("a root test builds as nobody: %v", err)
		}
		o.User = nobody
	}
	return o
}

// countFile is a file every user may append to: the build script counts
// its runs there.
func countFile(t *testing.T) string {
	t.Helper()
	p := filepath.Join(labtest.SharedDir(t), "count")
	if err := os.WriteFile(p, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, 0o666); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestBuildCachedBySHA(t *testing.T) {
	pgrst := labtest.PostgREST(t)
	r := labtest.NewGitRepo(t)
	ctx := context.Background()
	count := countFile(t)
	var lines []string
	o := testBuild(t, r)
	o.Env = []string{"LAB_POSTGREST=" + pgrst, "BUILD_COUNT=" + count}
	o.Progress = func(s string) { lines = append(lines, s) }
	built := map[string]string{}
	for _, ref := range []string{"main", "v1.10.0", "HEAD"} {
		o.Ref = ref
		res, err := Build(ctx, o)
		if err != nil {
			t.Fatalf("Build(%s): %v", ref, err)
		}
		want, _ := Resolve(ctx, r.Dir, ref)
		if res.SHA != want || res.Cached || res.Command != labtest.BuildCommand || !(runas.Store{Dir: o.Store}).Contains(res.Path) {
			t.Errorf("Build(%s) = %+v, want SHA %s built and kept in the store %s", ref, res, want, o.Store)
		}
		out, err := exec.Command(res.Path, "--version").CombinedOutput()
		if err != nil || !strings.HasPrefix(string(out), "PostgREST ") {
			t.Errorf("%s --version: %v %s", res.Path, err, out)
		}
		built[ref] = res.Path
	}
	script, _ := os.ReadFile(built["main"])
	if !strings.Contains(string(script), "+RTS -N1 -RTS") {
		t.Errorf("main's build lacks +RTS -N1:\n%s", script)
	}
	if script, _ := os.ReadFile(built["v1.10.0"]); strings.Contains(string(script), "+RTS") {
		t.Errorf("v1.10.0's build has +RTS:\n%s", script)
	}
	// HEAD (feature) builds as main does: the same bytes, kept once.
	if built["HEAD"] != built["main"] {
		t.Errorf("HEAD and main built the same wrapper, kept twice: %s and %s", built["HEAD"], built["main"])
	}
	lines = nil
	o.Ref = "main"
	res, err := Build(ctx, o)
	if err != nil || !res.Cached || res.Path != built["main"] {
		t.Errorf("second Build(main) = %+v, %v; want the cached %s", res, err, built["main"])
	}
	if len(lines) != 1 || !strings.Contains(lines[0], "cached") {
		t.Errorf("progress of a cached build: %q", lines)
	}
	if b, _ := os.ReadFile(count); strings.Count(string(b), "built") != 3 {
		t.Errorf("build command ran %d times, want 3 (the fourth cached)", strings.Count(string(b), "built"))
	}
	// Another command is another build.
	o.Command = labtest.BuildCommand + " && true"
	if res, err := Build(ctx, o); err != nil || res.Cached {
		t.Errorf("Build(main) with another command = %+v, %v; want a fresh build", res, err)
	}
	// The artifact given by path.
	o.Command, o.Ref = labtest.BuildCommand, "v1.10.0"
	o.Artifact = "dist-newstyle/build/x86_64-linux/ghc-9.6/postgrest-0/x/postgrest/build/postgrest/postgrest"
	if res, err := Build(ctx, o); err != nil || res.Path != built["v1.10.0"] {
		t.Errorf("Build(v1.10.0, --artifact) = %+v, %v", res, err)
	}
	o.Artifact = "nosuch/postgrest"
	if _, err := Build(ctx, o); err == nil || !strings.Contains(err.Error(), "nosuch/postgrest") {
		t.Errorf("Build with a missing --artifact: %v", err)
	}
}

func TestBuildFails(t *testing.T) {
	r := labtest.NewGitRepo(t)
	ctx := context.Background()
	o := testBuild(t, r)
	o.Ref = "broken"
	_, err := Build(ctx, o)
	var be *Error
	if !errors.As(err, &be) {
		t.Fatalf("Build(broken) = %v, want a *gitbuild.Error", err)
	}
	msg := err.Error()
	for _, w := range []string{"broken", r.Broken[:7], labtest.BuildCommand, "compiling Main.hs", "src/Main.hs:3:1: error: parse error"} {
		if !strings.Contains(msg, w) {
			t.Errorf("error lacks %q:\n%s", w, msg)
		}
	}
	if be.Ref != "broken" || be.SHA != r.Broken || !strings.HasSuffix(be.LogTail, "parse error") {
		t.Errorf("error %+v", be)
	}
	// A long log: only its last lines.
	o.Ref, o.Command = "main", "seq 1 100; exit 3"
	_, err = Build(ctx, o)
	if !errors.As(err, &be) || strings.Count(be.LogTail, "\n") != tailLines-1 || !strings.HasPrefix(be.LogTail, "81\n") {
		t.Errorf("tail of a long log: %v", err)
	}
	// A build that makes no postgrest.
	o.Command = "true"
	_, err = Build(ctx, o)
	if err == nil || !strings.Contains(err.Error(), "--artifact") {
		t.Errorf("build without an executable: %v", err)
	}
}

func TestBuildRefusesDirtyHEAD(t *testing.T) {
	pgrst := labtest.PostgREST(t)
	r := labtest.NewGitRepo(t)
	ctx := context.Background()
	os.WriteFile(filepath.Join(r.Dir, "README"), []byte("changed\n"), 0o644)
	o := testBuild(t, r)
	o.Ref, o.Env = "HEAD", []string{"LAB_POSTGREST=" + pgrst}
	if _, err := Build(ctx, o); !errors.Is(err, ErrDirty) || !strings.Contains(err.Error(), "--allow-dirty") {
		t.Errorf("Build(HEAD) with changes: %v, want ErrDirty", err)
	}
	o.Ref = "main" // another ref is not the work tree
	if _, err := Build(ctx, o); err != nil {
		t.Errorf("Build(main) with a dirty work tree: %v", err)
	}
	o.Ref, o.AllowDirty = "HEAD", true
	if res, err := Build(ctx, o); err != nil || res.SHA != r.Feature {
		t.Errorf("Build(HEAD, AllowDirty) = %+v, %v", res, err)
	}
}

func TestDefaultCommand(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	if _, err := DefaultCommand(t.TempDir()); err == nil || !strings.Contains(err.Error(), "--build") {
		t.Errorf("DefaultCommand without tools: %v", err)
	}
	bin := t.TempDir()
	os.WriteFile(filepath.Join(bin, "cabal"), []byte("#!/bin/sh\n"), 0o755)
	os.WriteFile(filepath.Join(bin, "nix-build"), []byte("#!/bin/sh\n"), 0o755)
	t.Setenv("PATH", bin)
	src := t.TempDir()
	if c, _ := DefaultCommand(src); !strings.HasPrefix(c, "cabal build") {
		t.Errorf("without default.nix: %q", c)
	}
	os.WriteFile(filepath.Join(src, "default.nix"), nil, 0o644)
	if c, _ := DefaultCommand(src); !strings.HasPrefix(c, "nix-build") {
		t.Errorf("with default.nix: %q", c)
	}
}

func TestVersionLess(t *testing.T) {
	for _, c := range [][2]string{{"v1.9.0", "v1.10.0"}, {"v1", "v1.0"}, {"v12.2.8", "v13.0.0"}, {"v13.0.8", "v14.17"}, {"v0.4.0.0", "v0.5.0"}} {
		if !versionLess(c[0], c[1]) || versionLess(c[1], c[0]) {
			t.Errorf("versionLess(%s, %s)", c[0], c[1])
		}
	}
}

// Two builds of one commit at once: one runs the command, the other waits
// and finds it cached.
func TestBuildConcurrent(t *testing.T) {
	pgrst := labtest.PostgREST(t)
	r := labtest.NewGitRepo(t)
	count := countFile(t)
	o := testBuild(t, r)
	o.Ref, o.Command = "main", "sleep 0.5; "+labtest.BuildCommand
	o.Env = []string{"LAB_POSTGREST=" + pgrst, "BUILD_COUNT=" + count}
	errs := make(chan error, 2)
	cached := make(chan bool, 2)
	for range 2 {
		go func() {
			res, err := Build(context.Background(), o)
			errs <- err
			cached <- res.Cached
		}()
	}
	n := 0
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
		if <-cached {
			n++
		}
	}
	if b, _ := os.ReadFile(count); n != 1 || strings.Count(string(b), "built") != 1 {
		t.Errorf("%d cached, the command ran %d times; want one build and one cached", n, strings.Count(string(b), "built"))
	}
}
