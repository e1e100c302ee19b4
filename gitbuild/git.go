package gitbuild

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"golang.org/x/mod/semver"
)

// git runs git in repo and returns its trimmed standard output.
func git(ctx context.Context, repo string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", repo}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return "", fmt.Errorf("git %s: %s", strings.Join(args, " "), msg)
	}
	return strings.TrimSpace(string(out)), nil
}

// Resolve returns the full SHA of the commit ref names in repo.
func Resolve(ctx context.Context, repo, ref string) (string, error) {
	if ref == "" || strings.HasPrefix(ref, "-") {
		return "", fmt.Errorf("ref %q: not a git ref", ref)
	}
	sha, err := git(ctx, repo, "rev-parse", "--verify", "--quiet", "--end-of-options", ref+"^{commit}")
	if err != nil {
		return "", fmt.Errorf("%s: no commit %q in the repository", repo, ref)
	}
	return sha, nil
}

// LatestRelease returns the newest release tag (v1.2.3) merged into base
// (HEAD when ""): of the v* tags whose commit base contains (`git tag
// --merged`), the highest in version order (v13.0.10 after v13.0.9). A tag
// made on a branch base does not contain is not base's release: for a
// PostgREST branch that has v14.1 merged, v16.0 made on main since is not
// it. An error when base has no release tag.
func LatestRelease(ctx context.Context, repo, base string) (string, error) {
	if base == "" {
		base = "HEAD"
	}
	sha, err := Resolve(ctx, repo, base)
	if err != nil {
		return "", err
	}
	out, err := git(ctx, repo, "tag", "--list", "--merged", sha, "v*")
	if err != nil {
		return "", err
	}
	var tags []string
	for _, t := range strings.Fields(out) {
		if versionTag.MatchString(t) {
			tags = append(tags, t)
		}
	}
	if len(tags) == 0 {
		return "", fmt.Errorf("%s: no release tag (v1.2.3) merged into %s", repo, base)
	}
	sort.Slice(tags, func(i, j int) bool { return versionLess(tags[i], tags[j]) })
	return tags[len(tags)-1], nil
}

var versionTag = regexp.MustCompile(`^v[0-9]+(\.[0-9]+)*$`)

// versionLess orders v1.2.3 tags as semantic versions (a tag that is not
// one, such as PostgREST's early v0.4.0.0, sorts below them all); equal
// versions (v1, v1.0) by their text, so that the order is total.
func versionLess(a, b string) bool {
	c := semver.Compare(a, b)
	return c < 0 || c == 0 && a < b
}

// Dirty reports whether repo's work tree has changes (untracked files
// that are not ignored count).
func Dirty(ctx context.Context, repo string) (bool, error) {
	out, err := git(ctx, repo, "status", "--porcelain")
	return out != "", err
}

// DefaultCommand is the build command for PostgREST's repository checked
// out in dir: nix-build when it has a default.nix and nix-build is
// installed, else cabal, else stack.
func DefaultCommand(dir string) (string, error) {
	_, err := os.Stat(filepath.Join(dir, "default.nix"))
	return defaultCommand(err == nil)
}

// defaultCommandAt is DefaultCommand for commit sha of repo.
func defaultCommandAt(ctx context.Context, repo, sha string) (string, error) {
	_, err := git(ctx, repo, "cat-file", "-e", sha+":default.nix")
	return defaultCommand(err == nil)
}

func defaultCommand(nix bool) (string, error) {
	if nix {
		if _, err := exec.LookPath("nix-build"); err == nil {
			return "nix-build -A postgrestPackage", nil
		}
	}
	if _, err := exec.LookPath("cabal"); err == nil {
		return "cabal build exe:postgrest", nil
	}
	if _, err := exec.LookPath("stack"); err == nil {
		return "stack build", nil
	}
	return "", errors.New("no build command: neither nix-build (with default.nix), cabal nor stack is installed; give one with --build CMD (or $LAB_BUILD)")
}
