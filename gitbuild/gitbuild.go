// Package gitbuild builds PostgREST from a git repository: a ref resolved
// to its commit, its tree exported (`git archive`) into a directory of its
// own under a cache directory, built there with a shell command, and the
// executable it made copied into the lab's store of binaries
// (runas.Store), cached by commit SHA and command. It is an adapter over
// the git CLI (os/exec); it imports nothing of the lab.
//
// A build is code from whoever wrote the commit (a pull request's), so it
// never runs as root: the command runs as Options.User (a root lab names
// an unprivileged account; the lab's own user otherwise), confined so that
// it can gain no privilege (runas.StartConfined), in a tree that account
// owns, with an environment that is an allow-list (PATH, HOME, USER,
// LOGNAME, LANG, LC_ALL, TZ, and what Options.Env names), never the
// lab's own (no store URI, no token). Root only writes into directories
// no other user can change (the cache, each commit's directory) and opens
// nothing there through a link; it reads the build's tree only to find the
// executable, which it copies as the build's user, so what runs later is
// the lab's copy, not a file the build could still change.
package gitbuild

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/pgrst-lab/pgrst-lab/internal/runas"
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
	// Command is run with `sh -c` in the exported tree; DefaultCommand's
	// when empty.
	Command string
	// Artifact is the executable's path relative to the tree; when empty,
	// the first executable named postgrest under result, dist-newstyle or
	// .stack-work.
	Artifact string
	// CacheDir holds a directory per commit (the tree, the log, the
	// marker); DefaultCacheDir when empty. It must be one no other user
	// can change, and User must be able to enter it.
	CacheDir string
	// Store keeps the executables built (runas.DefaultStore when empty).
	Store string
	// User runs the build command; the lab's own user when zero. A root
	// lab must name an unprivileged one (the target's account, or one the
	// operator names): Build refuses to build as root.
	User runas.Account
	// AllowDirty builds HEAD even when the repository's work tree has
	// changes (which the build, made from the commit, does not contain).
	AllowDirty bool
	Timeout    time.Duration // DefaultTimeout when zero
	// Env is what the build's environment holds beyond the allow-list
	// (BaseEnv): NAME=VALUE assignments.
	Env      []string
	Progress func(string) // one line per step; nil for none
}

// Result is a built executable.
type Result struct {
	Path    string // the lab's copy of the executable (in the store), absolute
	SHA     string
	Ref     string
	Command string // the build command as run (the default says so)
	User    string // who ran it
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

// Build builds o.Ref (o.SHA) and returns its executable, reusing an
// earlier build of the same commit with the same command.
func Build(ctx context.Context, o Options) (Result, error) {
	progress := o.Progress
	if progress == nil {
		progress = func(string) {}
	}
	user, err := buildUser(o.User)
	if err != nil {
		return Result{}, err
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
	c, err := openCache(o.CacheDir, user)
	if err != nil {
		return Result{}, err
	}
	store, err := storeOf(o.Store)
	if err != nil {
		return Result{}, err
	}
	b, err := c.commit(sha)
	if err != nil {
		return Result{}, err
	}
	res := Result{SHA: sha, Ref: o.Ref, Log: b.log(), User: user.Name}

	// One build of a commit at a time: two labs building it wait for each
	// other, and the second finds the first's build cached.
	unlock, err := b.lock(func() { progress(fmt.Sprintf("%s (%s): waiting for another build of it", o.Ref, short(sha))) })
	if err != nil {
		return res, err
	}
	defer unlock()
	command, run := o.Command, o.Command
	if command == "" {
		if run, err = defaultCommandAt(ctx, repo, sha); err != nil {
			return res, err
		}
		command = run + " (default)"
	}
	res.Command = command
	if m, ok := b.readMarker(); ok && m.SHA == sha && m.Command == command && m.Artifact == o.Artifact && m.User == user.Name && store.Contains(m.Path) {
		if isExecutable(m.Path) {
			res.Path, res.Cached = m.Path, true
			res.LogTail = b.tail()
			progress(fmt.Sprintf("%s (%s): built before, cached in %s", o.Ref, short(sha), b.dir))
			return res, nil
		}
	}
	b.removeMarker()

	timeout := o.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	fail := func(err error) (Result, error) {
		res.LogTail = b.tail()
		return res, &Error{Ref: o.Ref, SHA: sha, Command: run, Log: b.log(), LogTail: res.LogTail, Err: err}
	}
	if err := b.export(ctx, repo, sha, user); err != nil {
		return res, err
	}
	progress(fmt.Sprintf("%s (%s): building with `%s` as %s in %s (log %s)", o.Ref, short(sha), run, user.Name, b.src(), b.log()))
	start := time.Now()
	home, err := c.home(user)
	if err != nil {
		return res, err
	}
	if err := b.run(ctx, run, user, home, o.Env, timeout); err != nil {
		return fail(err)
	}
	artifact, err := locate(b.src(), o.Artifact)
	if err != nil {
		return fail(err)
	}
	if res.Path, err = copyArtifact(ctx, artifact, user, store); err != nil {
		return fail(err)
	}
	res.LogTail = b.tail()
	if err := b.writeMarker(marker{SHA: sha, Command: command, Artifact: o.Artifact, User: user.Name, Built: artifact, Path: res.Path}); err != nil {
		return res, err
	}
	progress(fmt.Sprintf("%s (%s): built in %s: %s", o.Ref, short(sha), time.Since(start).Round(time.Second), res.Path))
	return res, nil
}

// buildUser is who runs a build: u, else the lab's own user; never root.
func buildUser(u runas.Account) (runas.Account, error) {
	if u.Name == "" {
		self, err := runas.Current()
		if err != nil {
			return runas.Account{}, err
		}
		u = self
	}
	if u.UID == 0 {
		return runas.Account{}, errors.New("a build runs the commit's own code, never as root: name an unprivileged user to build as (lab: --build-user, else the target's user)")
	}
	if !u.Self() && os.Geteuid() != 0 {
		return runas.Account{}, fmt.Errorf("build as %s: the lab runs as uid %d and cannot switch users; build as yourself", u.Name, os.Geteuid())
	}
	return u, nil
}

func storeOf(dir string) (runas.Store, error) {
	if dir != "" {
		return runas.Store{Dir: dir}, nil
	}
	return runas.DefaultStore()
}

// short is a SHA's first 7 hex digits.
func short(sha string) string { return sha[:min(len(sha), 7)] }

// Short is a SHA's first 7 hex digits, as reports show it.
func Short(sha string) string { return short(sha) }
