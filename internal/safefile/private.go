package safefile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// OpenPrivate opens the file at path for reading when no user but root and
// the effective user could have put it there or could swap it: path must
// be absolute and hold no symbolic link (one filepath.EvalSymlinks
// returned). It walks path from / one component at a time, each opened
// relative to the one before with O_NOFOLLOW, and checks every directory
// through its descriptor as CheckPrivateDir does (owned by root or us; not
// writable by group or others, except a sticky directory above the
// file's own). What the caller reads, checks and runs is the file opened
// here, never the path again: a component swapped for a link after the
// path was resolved fails the open with ErrUnsafe.
func OpenPrivate(path string) (*os.File, error) {
	if !filepath.IsAbs(path) {
		return nil, fmt.Errorf("open %s: not an absolute path", path)
	}
	clean := filepath.Clean(path)
	parts := strings.Split(strings.TrimLeft(clean, "/"), "/")
	dir, err := unix.Open("/", unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: "/", Err: err}
	}
	dirs := []string{"/"}
	fds := []int{dir}
	defer func() {
		for _, fd := range fds {
			unix.Close(fd)
		}
	}()
	for i, p := range parts[:len(parts)-1] {
		fd, err := unix.Openat(dir, p, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil {
			return nil, resolvedErr(path, err)
		}
		fds = append(fds, fd)
		dirs = append(dirs, "/"+filepath.Join(parts[:i+1]...))
		dir = fd
	}
	// The file's own directory first: it may not be writable by anybody
	// else, sticky or not; those above it only when sticky (/tmp).
	for i := len(fds) - 1; i >= 0; i-- {
		if err := checkDirFD(fds[i], dirs[i], filepath.Dir(clean), i == len(fds)-1); err != nil {
			return nil, err
		}
	}
	fd, err := unix.Openat(dir, parts[len(parts)-1], unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC|unix.O_NOCTTY, 0)
	if err != nil {
		return nil, resolvedErr(path, err)
	}
	return os.NewFile(uintptr(fd), path), nil
}

// checkDirFD is CheckPrivateDir's rule for one directory, read through its
// descriptor; first is the directory the file is in.
func checkDirFD(fd int, name, dir string, first bool) error {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return &os.PathError{Op: "stat", Path: name, Err: err}
	}
	mode := os.FileMode(st.Mode & 0o777)
	switch {
	case st.Mode&syscall.S_IFMT != syscall.S_IFDIR:
		return fmt.Errorf("%s: not a directory (%w)", name, ErrUnsafe)
	case st.Uid != 0 && int(st.Uid) != Own():
		return fmt.Errorf("%s belongs to uid %d, who could plant files in %s (%w)", name, st.Uid, dir, ErrUnsafe)
	case mode&0o022 != 0 && (first || st.Mode&syscall.S_ISVTX == 0):
		return fmt.Errorf("%s is writable by group or others (mode %04o), who could plant files in %s (%w)", name, mode, dir, ErrUnsafe)
	}
	return nil
}
