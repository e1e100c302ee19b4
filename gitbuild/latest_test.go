package gitbuild

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
)

// TestLatestReleaseIsMergedIntoBase: a real repository whose main has
// v14.0 and v14.1 merged, and a side branch (made from v14.1) with v16.0
// and v16.2 that main does not contain. The latest release of main is
// v14.1, not the repository's highest tag v16.2 (what LatestRelease
// returned before it asked `git tag --merged`); of the side branch it is
// v16.2; HEAD counts when no base is given; a base with no release tag
// and an unknown base are errors.
func TestLatestReleaseIsMergedIntoBase(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		labtest.Need(t, "git is not installed")
		return
	}
	dir := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=lab", "GIT_AUTHOR_EMAIL=lab@example.com",
			"GIT_COMMITTER_NAME=lab", "GIT_COMMITTER_EMAIL=lab@example.com", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	commit := func(msg string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, "CHANGELOG"), []byte(msg+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		git("add", "-A")
		git("commit", "-q", "-m", msg)
	}
	git("init", "-q", "-b", "main")
	commit("before any release")
	git("checkout", "-q", "-b", "unreleased")
	commit("a branch with no release merged")
	git("checkout", "-q", "main")
	commit("14.0")
	git("tag", "v14.0")
	commit("14.1")
	git("tag", "v14.1")
	git("checkout", "-q", "-b", "side")
	commit("16.0")
	git("tag", "v16.0")
	commit("16.2")
	git("tag", "v16.2")
	git("checkout", "-q", "main")
	commit("after 14.1 on main")
	git("tag", "vnext") // not a release tag

	ctx := context.Background()
	for base, want := range map[string]string{"main": "v14.1", "": "v14.1", "HEAD": "v14.1", "side": "v16.2", "v16.0": "v16.0", "v14.0": "v14.0"} {
		if tag, err := LatestRelease(ctx, dir, base); err != nil || tag != want {
			t.Errorf("LatestRelease(base %q) = %q, %v; want %s", base, tag, err, want)
		}
	}
	for _, base := range []string{"unreleased", "nosuch", "--all"} {
		if tag, err := LatestRelease(ctx, dir, base); err == nil {
			t.Errorf("LatestRelease(base %q) = %q, want an error", base, tag)
		}
	}
}
