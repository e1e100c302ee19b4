package gitbuild

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"

	"github.com/pgrst-lab/pgrst-lab/internal/atomicfile"
	"github.com/pgrst-lab/pgrst-lab/internal/runas"
	"github.com/pgrst-lab/pgrst-lab/internal/safefile"
	"github.com/pgrst-lab/pgrst-lab/internal/textsafe"
)

// DefaultCacheDir is the builds directory of the lab's cache
// (runas.CacheDir: $XDG_CACHE_HOME/pgrst-lab/builds, else
// /var/cache/pgrst-lab/builds for root, ~/.cache/pgrst-lab/builds
// otherwise).
func DefaultCacheDir() (string, error) {
	d, err := runas.CacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "builds"), nil
}

// cache is a build cache directory: one no other user can change, that
// the build's user can enter.
type cache struct{ dir string }

func openCache(dir string, user runas.Account) (cache, error) {
	if dir == "" {
		var err error
		if dir, err = DefaultCacheDir(); err != nil {
			return cache{}, err
		}
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return cache{}, err
	}
	if err := runas.MkdirShared(dir); err != nil {
		return cache{}, fmt.Errorf("build cache %s: %w", dir, err)
	}
	if err := safefile.CheckPrivateDir(dir); err != nil {
		return cache{}, fmt.Errorf("build cache %s: %w (a cache another user can change could plant what the lab runs: give a cache only you can write, e.g. unset XDG_CACHE_HOME)", dir, err)
	}
	if err := user.CanEnter(dir); err != nil {
		return cache{}, fmt.Errorf("build cache %s: the build runs as %s: %w (choose a cache directory it can reach)", dir, user.Name, err)
	}
	return cache{dir: dir}, nil
}

var shaRe = regexp.MustCompile(`^[0-9a-f]{40}([0-9a-f]{24})?$`)

// commit is the directory of one commit's builds, made when missing: a
// directory of ours, mode 0755 (the build's user enters it to reach its
// tree), never a link.
func (c cache) commit(sha string) (commitDir, error) {
	if !shaRe.MatchString(sha) {
		return commitDir{}, fmt.Errorf("commit %q: not a full SHA", sha)
	}
	dir := filepath.Join(c.dir, sha)
	if err := ownDir(dir, 0o755); err != nil {
		return commitDir{}, fmt.Errorf("build cache: %w", err)
	}
	return commitDir{dir: dir}, nil
}

// ownDir makes dir (mode perm) when missing and checks that it is a
// directory of ours that no one else can write, not a link.
func ownDir(dir string, perm os.FileMode) error {
	if err := os.Mkdir(dir, perm); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || !fi.IsDir() || int(st.Uid) != safefile.Own() {
		return fmt.Errorf("%s is not a directory of uid %d (%w)", dir, safefile.Own(), safefile.ErrUnsafe)
	}
	return os.Chmod(dir, perm)
}

// home is HOME for a build as user: the lab's own HOME when it builds as
// itself; else the user's home when it is a directory of theirs, else a
// directory of theirs in the cache (home/NAME, mode 0700), kept between
// builds (cabal's and stack's package stores live there).
func (c cache) home(user runas.Account) (string, error) {
	if user.Self() {
		if h := os.Getenv("HOME"); h != "" {
			return h, nil
		}
		return user.Home, nil
	}
	if user.Home != "" {
		if fi, err := os.Stat(user.Home); err == nil && fi.IsDir() {
			if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) == user.UID {
				return user.Home, nil
			}
		}
	}
	homes := filepath.Join(c.dir, "home")
	if err := ownDir(homes, 0o755); err != nil {
		return "", fmt.Errorf("build cache: %w", err)
	}
	home := filepath.Join(homes, safeUser(user.Name))
	if err := os.Mkdir(home, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", fmt.Errorf("build home %s: %w", home, err)
	}
	fi, err := os.Lstat(home)
	if err != nil {
		return "", err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	switch {
	case !ok || !fi.IsDir():
		return "", fmt.Errorf("build home %s: not a directory (%w)", home, safefile.ErrUnsafe)
	case int(st.Uid) == user.UID:
	case int(st.Uid) == safefile.Own():
		if err := os.Lchown(home, user.UID, user.GID); err != nil {
			return "", fmt.Errorf("build home %s: %w", home, err)
		}
	default:
		return "", fmt.Errorf("build home %s belongs to uid %d, not %s (%w)", home, st.Uid, user, safefile.ErrUnsafe)
	}
	return home, nil
}

func safeUser(name string) string {
	if name == "" || strings.Trim(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") != "" || name[0] == '.' {
		return "user"
	}
	return name
}

// commitDir holds one commit's build: its tree (src, the build user's),
// its log, its lock and its marker (the lab's).
type commitDir struct{ dir string }

func (b commitDir) src() string    { return filepath.Join(b.dir, "src") }
func (b commitDir) log() string    { return filepath.Join(b.dir, "build.log") }
func (b commitDir) marker() string { return filepath.Join(b.dir, "built.json") }

// lock takes the commit's build lock (flock on lock, released when the
// process ends), calling waiting once when another holds it. What is at
// lock and is not a regular file of ours (a link) is replaced, never
// opened (safefile.OpenAppend).
func (b commitDir) lock(waiting func()) (func(), error) {
	path := filepath.Join(b.dir, "lock")
	f, err := safefile.OpenAppend(path, 0o600)
	if err != nil {
		return nil, fmt.Errorf("build lock: %w", err)
	}
	fd := int(f.Fd())
	if err := syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		waiting()
		if err := syscall.Flock(fd, syscall.LOCK_EX); err != nil {
			f.Close()
			return nil, err
		}
	}
	return func() { f.Close() }, nil
}

// marker is what a successful build leaves next to its tree.
type marker struct {
	SHA      string `json:"sha"`
	Command  string `json:"command"`
	Artifact string `json:"artifact,omitempty"` // as asked (--artifact), relative to the tree
	User     string `json:"user"`               // who built it
	Built    string `json:"built"`              // the executable the build made, in its tree
	Path     string `json:"path"`               // the lab's copy of it, in the store
}

// readMarker reads the marker: a regular file of ours with one link, never
// through a link.
func (b commitDir) readMarker() (marker, bool) {
	data, err := safefile.ReadFile(b.marker(), safefile.Own())
	if err != nil {
		return marker{}, false
	}
	var m marker
	return m, json.Unmarshal(data, &m) == nil
}

func (b commitDir) writeMarker(m marker) error {
	data, _ := json.MarshalIndent(m, "", "  ")
	return atomicfile.Write(b.marker(), append(data, '\n'), atomicfile.Options{Mode: 0o644})
}

func (b commitDir) removeMarker() { os.Remove(b.marker()) }

// openLog makes the log afresh (a regular file of ours: what was there is
// removed, never opened through a link) for the build to write to.
func (b commitDir) openLog() (*os.File, error) {
	if err := os.Remove(b.log()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return safefile.OpenAppend(b.log(), 0o644)
}

// tail returns the log's last tailLines lines, the build's own output:
// through textsafe.Lines, as errors print it on a terminal.
func (b commitDir) tail() string {
	data, err := safefile.ReadFile(b.log(), safefile.Own())
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) > tailLines {
		lines = lines[len(lines)-tailLines:]
	}
	return textsafe.Lines(strings.Join(lines, "\n"))
}
