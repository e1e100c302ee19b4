// Package gitbuild builds PostgREST from a git repository: a ref resolved
// to its commit, checked out in its own worktree under a cache directory,
// built with a shell command, its executable located and cached by commit
// SHA. It is an adapter over the git CLI (os/exec); it imports nothing of
// the lab.
package gitbuild

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/pgrst-lab/pgrst-lab/internal/textsafe"
	"golang.org/x/mod/semver"
)

// DefaultTimeout bounds one build command when Options.Timeout is zero.
const DefaultTimeout = 2 * time.Hour

// tailLines is how many of a failed build's last log lines its error holds.
const tailLines = 20

// Options are one build.
type Options struct {
	Repo string // the repository (any directory in its work tree)
	Ref  string // what was asked for: branch, tag, SHA, HEAD
	SHA  string // the resolved commit; resolved from Ref when empty
	// Command is run with `sh -c` in the worktree; DefaultCommand's when empty.
	Command string
	// Artifact is the executable's path relative to the worktree; when
	// empty, the first executable named postgrest under result,
	// dist-newstyle or .stack-work.
	Artifact string
	// CacheDir holds a directory per commit (worktree, log, marker);
	// DefaultCacheDir when empty.
	CacheDir string
	// AllowDirty builds HEAD even when the repository's work tree has
	// changes (which the build, made from the commit, does not contain).
	AllowDirty bool
	Timeout    time.Duration // DefaultTimeout when zero
	Env        []string      // added to the environment of the command
	Progress   func(string)  // one line per step; nil for none
}

// Result is a built executable.
type Result struct {
	Path    string // the executable, absolute
	SHA     string
	Ref     string
	Command string // the build command as run (the default says so)
	Cached  bool   // an earlier build of this commit and command was reused
	Log     string // the build log's path
	LogTail string // the log's last lines
}

// Error is a build command that failed.
type Error struct {
	Ref, SHA, Command string
	Log               string // the log's path
	LogTail           string // its last lines
	Err               error
}

func (e *Error) Error() string {
	return fmt.Sprintf("build of %s (%s) failed: `%s`: %v; log %s, its last lines:\n%s",
		e.Ref, short(e.SHA), e.Command, e.Err, e.Log, e.LogTail)
}

func (e *Error) Unwrap() error { return e.Err }

// ErrDirty is returned when HEAD is asked for while the work tree has changes.
var ErrDirty = errors.New("the work tree has uncommitted changes, which a build of HEAD's commit would not contain")

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
	if _, err := os.Stat(filepath.Join(dir, "default.nix")); err == nil {
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

// DefaultCacheDir is $XDG_CACHE_HOME/pgrst-lab/builds (~/.cache/... by default).
func DefaultCacheDir() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "pgrst-lab", "builds"), nil
}

// marker is what a successful build leaves next to its worktree.
type marker struct {
	SHA      string `json:"sha"`
	Command  string `json:"command"`
	Artifact string `json:"artifact"` // absolute
}

// Build builds o.Ref (o.SHA) and returns its executable, reusing an
// earlier build of the same commit with the same command.
func Build(ctx context.Context, o Options) (Result, error) {
	progress := o.Progress
	if progress == nil {
		progress = func(string) {}
	}
	repo, err := filepath.Abs(o.Repo)
	if err != nil {
		return Result{}, err
	}
	sha := o.SHA
	if sha == "" {
		if sha, err = Resolve(ctx, repo, o.Ref); err != nil {
			return Result{}, err
		}
	}
	if o.Ref == "HEAD" && !o.AllowDirty {
		dirty, err := Dirty(ctx, repo)
		if err != nil {
			return Result{}, err
		}
		if dirty {
			return Result{}, fmt.Errorf("%s: HEAD: %w (commit them, or allow it with --allow-dirty)", repo, ErrDirty)
		}
	}
	cache := o.CacheDir
	if cache == "" {
		if cache, err = DefaultCacheDir(); err != nil {
			return Result{}, err
		}
	}
	if cache, err = filepath.Abs(cache); err != nil {
		return Result{}, err
	}
	dir := filepath.Join(cache, sha)
	src, logPath, markPath := filepath.Join(dir, "src"), filepath.Join(dir, "build.log"), filepath.Join(dir, "built.json")
	res := Result{SHA: sha, Ref: o.Ref, Log: logPath}

	// One build of a commit at a time: two labs building it wait for each
	// other, and the second finds the first's build cached.
	unlock, err := lock(dir, func() { progress(fmt.Sprintf("%s (%s): waiting for another build of it", o.Ref, short(sha))) })
	if err != nil {
		return res, err
	}
	defer unlock()
	if err := checkout(ctx, repo, sha, src); err != nil {
		return res, err
	}
	command := o.Command
	if command == "" {
		if command, err = DefaultCommand(src); err != nil {
			return res, err
		}
		command += " (default)"
	}
	res.Command = command
	run := strings.TrimSuffix(command, " (default)")

	if m, ok := readMarker(markPath); ok && m.SHA == sha && m.Command == command && (o.Artifact == "" || m.Artifact == filepath.Join(src, o.Artifact)) {
		if isExecutable(m.Artifact) {
			res.Path, res.Cached = m.Artifact, true
			res.LogTail = tail(logPath)
			progress(fmt.Sprintf("%s (%s): built before, cached in %s", o.Ref, short(sha), dir))
			return res, nil
		}
	}
	os.Remove(markPath)

	timeout := o.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	progress(fmt.Sprintf("%s (%s): building with `%s` in %s (log %s)", o.Ref, short(sha), run, src, logPath))
	start := time.Now()
	logf, err := os.Create(logPath)
	if err != nil {
		return res, err
	}
	bctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(bctx, "sh", "-c", run)
	cmd.Dir, cmd.Stdout, cmd.Stderr = src, logf, logf
	cmd.Env = append(os.Environ(), o.Env...)
	cmd.WaitDelay = 10 * time.Second
	err = cmd.Run()
	logf.Close()
	res.LogTail = tail(logPath)
	if err != nil {
		if bctx.Err() == context.DeadlineExceeded {
			err = fmt.Errorf("timed out after %s: %w", timeout, err)
		}
		return res, &Error{Ref: o.Ref, SHA: sha, Command: run, Log: logPath, LogTail: res.LogTail, Err: err}
	}
	path, err := locate(src, o.Artifact)
	if err != nil {
		return res, &Error{Ref: o.Ref, SHA: sha, Command: run, Log: logPath, LogTail: res.LogTail, Err: err}
	}
	res.Path = path
	b, _ := json.MarshalIndent(marker{SHA: sha, Command: command, Artifact: path}, "", "  ")
	if err := os.WriteFile(markPath, append(b, '\n'), 0o644); err != nil {
		return res, err
	}
	progress(fmt.Sprintf("%s (%s): built in %s: %s", o.Ref, short(sha), time.Since(start).Round(time.Second), path))
	return res, nil
}

// checkout makes src a worktree of repo at sha, or keeps it when it is one.
func checkout(ctx context.Context, repo, sha, src string) error {
	if _, err := os.Stat(src); err == nil {
		if head, err := git(ctx, src, "rev-parse", "HEAD"); err == nil && head == sha {
			return nil
		}
		// A worktree of a repository since removed, or half made: start over.
		if err := os.RemoveAll(src); err != nil {
			return err
		}
		git(ctx, repo, "worktree", "prune")
	}
	if err := os.MkdirAll(filepath.Dir(src), 0o755); err != nil {
		return err
	}
	if _, err := git(ctx, repo, "worktree", "add", "--force", "--detach", src, sha); err != nil {
		return err
	}
	return nil
}

func readMarker(path string) (marker, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return marker{}, false
	}
	var m marker
	return m, json.Unmarshal(b, &m) == nil
}

// locate returns the artifact: rel under src when given, else the first
// executable named postgrest under result (nix), dist-newstyle (cabal) or
// .stack-work (stack).
func locate(src, rel string) (string, error) {
	if rel != "" {
		p := filepath.Join(src, rel)
		if !isExecutable(p) {
			return "", fmt.Errorf("--artifact %s: no executable file %s after the build", rel, p)
		}
		return p, nil
	}
	for _, d := range []string{"result", "dist-newstyle", ".stack-work"} {
		root, err := filepath.EvalSymlinks(filepath.Join(src, d)) // nix's result is a link
		if err != nil {
			continue
		}
		var found string
		filepath.WalkDir(root, func(p string, de fs.DirEntry, err error) error {
			if err != nil || found != "" {
				return filepath.SkipDir
			}
			if de.Name() == "postgrest" && !de.IsDir() && isExecutable(p) {
				found = p
				return filepath.SkipAll
			}
			return nil
		})
		if found != "" {
			if d != "result" {
				return found, nil
			}
			// Name it through the link, as nix-build made it.
			rel, _ := filepath.Rel(root, found)
			return filepath.Join(src, d, rel), nil
		}
	}
	return "", errors.New("the build made no executable named postgrest under result, dist-newstyle or .stack-work: give its path with --artifact")
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// tail returns the last tailLines lines of the file at path, the build's
// own output: through textsafe.Lines, as errors print it on a terminal.
func tail(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > tailLines {
		lines = lines[len(lines)-tailLines:]
	}
	return textsafe.Lines(strings.Join(lines, "\n"))
}

// short is a SHA's first 7 hex digits.
func short(sha string) string { return sha[:min(len(sha), 7)] }

// Short is a SHA's first 7 hex digits, as reports show it.
func Short(sha string) string { return short(sha) }

// lock takes dir's build lock (flock on dir/lock, released when the
// process ends), calling waiting once when another holds it.
func lock(dir string, waiting func()) (func(), error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(filepath.Join(dir, "lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		waiting()
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
			f.Close()
			return nil, err
		}
	}
	return func() { f.Close() }, nil
}
