package runas

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"syscall"

	"github.com/pgrst-lab/pgrst-lab/internal/safefile"
)

// Store is a directory of executables kept by their content (in a
// directory named by the first 16 hex digits of their SHA-256, under
// their own name, so that a process list still says "postgrest"),
// written only by the lab's
// own user: what a root lab runs of a binary it did not write (Pin) and
// the builds it made as another user (Add). The directory must be one no
// other user can change (safefile.CheckPrivateDir); it is made, mode
// 0755, when missing, so that the target's account can run what is in it.
type Store struct{ Dir string }

// DefaultStore is CacheDir()/bin.
func DefaultStore() (Store, error) {
	d, err := CacheDir()
	if err != nil {
		return Store{}, err
	}
	return Store{Dir: filepath.Join(d, "bin")}, nil
}

// pinned remembers which file was copied where in this process, so that
// an unchanged file (the same inode, size and times: only root or the
// lab's user can change it, and a change moves its ctime) is not read
// again at every start.
var pinned = struct {
	sync.Mutex
	m map[pinKey]string
}{m: map[pinKey]string{}}

type pinKey struct {
	dir                    string
	dev, ino               uint64
	size, mtimeNS, ctimeNS int64
}

// pin copies the open, checked file f into the store and returns the
// copy's path.
func (s Store) pin(f *os.File, fi os.FileInfo, name string) (string, error) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return "", errors.New("no file identity")
	}
	key := pinKey{dir: s.Dir, dev: uint64(st.Dev), ino: st.Ino, size: fi.Size(),
		mtimeNS: st.Mtim.Nano(), ctimeNS: st.Ctim.Nano()}
	pinned.Lock()
	defer pinned.Unlock()
	if p, ok := pinned.m[key]; ok && s.holds(p, fi.Size()) {
		return p, nil
	}
	if err := s.prepare(); err != nil {
		return "", err
	}
	sum, err := hashOf(f)
	if err != nil {
		return "", fmt.Errorf("read: %w", err)
	}
	final, err := s.slot(sum, name)
	if err != nil {
		return "", err
	}
	if !s.holds(final, fi.Size()) {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return "", err
		}
		tmp, got, _, err := s.temp(filepath.Dir(final), f)
		if err != nil {
			return "", err
		}
		defer os.Remove(tmp)
		if got != sum {
			return "", errors.New("it changed while it was copied: try again when it is complete")
		}
		if err := os.Rename(tmp, final); err != nil {
			return "", fmt.Errorf("store %s: %w", s.Dir, err)
		}
	}
	pinned.m[key] = final
	return final, nil
}

// Add copies what r reads into the store under name (a build's artifact,
// read as the user who built it) and returns the copy's path.
func (s Store) Add(r io.Reader, name string) (string, error) {
	if err := s.prepare(); err != nil {
		return "", err
	}
	tmp, sum, size, err := s.temp(s.Dir, r)
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp)
	final, err := s.slot(sum, name)
	if err != nil {
		return "", err
	}
	if s.holds(final, size) {
		return final, nil
	}
	if err := os.Rename(tmp, final); err != nil {
		return "", fmt.Errorf("store %s: %w", s.Dir, err)
	}
	return final, nil
}

// slot is where the store keeps content sum under name: its directory
// (mode 0755) is made when missing, and must be a directory of ours, not
// a link.
func (s Store) slot(sum, name string) (string, error) {
	dir := filepath.Join(s.Dir, sum[:16])
	if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", fmt.Errorf("store %s: %w", s.Dir, err)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return "", fmt.Errorf("store %s: %w", s.Dir, err)
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); !ok || !fi.IsDir() || int(st.Uid) != safefile.Own() || fi.Mode().Perm()&0o022 != 0 {
		return "", fmt.Errorf("store %s: %s is not a directory of ours that only we can change (%w)", s.Dir, dir, safefile.ErrUnsafe)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		return "", fmt.Errorf("store %s: %w", s.Dir, err)
	}
	return filepath.Join(dir, safeName(name)), nil
}

// temp copies r into a new file in dir (O_EXCL, so nothing planted is
// opened), executable by everyone and synced, and returns its name, the
// SHA-256 of what it wrote and its size. The caller renames it into place
// or removes it.
func (s Store) temp(dir string, r io.Reader) (name, sum string, size int64, err error) {
	tmp, err := os.CreateTemp(dir, ".pin-*")
	if err != nil {
		return "", "", 0, fmt.Errorf("store %s: %w", s.Dir, err)
	}
	h := sha256.New()
	size, err = io.Copy(io.MultiWriter(tmp, h), r)
	if err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return "", "", 0, fmt.Errorf("copy into %s: %w", s.Dir, err)
	}
	if err := finish(tmp); err != nil {
		os.Remove(tmp.Name())
		return "", "", 0, err
	}
	return tmp.Name(), hex.EncodeToString(h.Sum(nil)), size, nil
}

// finish makes a copy executable by everyone, through its descriptor, and
// durable before it is renamed into place.
func finish(tmp *os.File) error {
	err := tmp.Chmod(0o755)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("store %s: %w", filepath.Dir(tmp.Name()), err)
	}
	return nil
}

// holds reports whether path is a copy the store made: a regular file of
// ours, mode 0755, with one link and the expected size.
func (s Store) holds(path string, size int64) bool {
	fi, err := os.Lstat(path)
	if err != nil {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && fi.Mode().IsRegular() && fi.Mode().Perm() == 0o755 && int(st.Uid) == safefile.Own() &&
		st.Nlink == 1 && fi.Size() == size
}

// prepare makes the store's directory (mode 0755) when it is missing and
// checks that no other user can change it or a directory above it.
func (s Store) prepare() error {
	if s.Dir == "" || !filepath.IsAbs(s.Dir) {
		return fmt.Errorf("store %q: not an absolute directory", s.Dir)
	}
	if err := MkdirShared(s.Dir); err != nil {
		return fmt.Errorf("store %s: %w", s.Dir, err)
	}
	if err := safefile.CheckPrivateDir(s.Dir); err != nil {
		return fmt.Errorf("store %s: %w (root keeps the copies it runs where only root can write)", s.Dir, err)
	}
	return nil
}

// MkdirShared makes dir and the directories above it that are missing,
// each mode 0755 whatever the umask, so that another account can enter
// them; directories that exist are left as they are.
func MkdirShared(dir string) error {
	fi, err := os.Stat(dir)
	if err == nil {
		if !fi.IsDir() {
			return fmt.Errorf("%s is not a directory", dir)
		}
		return nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if parent := filepath.Dir(dir); parent != dir {
		if err := MkdirShared(parent); err != nil {
			return err
		}
	}
	if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return os.Chmod(dir, 0o755)
}

func hashOf(r io.Reader) (string, error) {
	var h hash.Hash = sha256.New()
	if _, err := io.Copy(h, r); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

var nameUnsafe = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// safeName is a file name made of [A-Za-z0-9._-] only.
func safeName(name string) string {
	n := nameUnsafe.ReplaceAllString(name, "_")
	if n == "" || n == "." || n == ".." {
		return "binary"
	}
	return n
}

// Contains reports whether path is a file the store keeps (by its place:
// <Dir>/<hash>/<name>).
func (s Store) Contains(path string) bool {
	return s.Dir != "" && filepath.Dir(filepath.Dir(filepath.Clean(path))) == filepath.Clean(s.Dir)
}
