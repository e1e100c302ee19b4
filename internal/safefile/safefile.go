// Package safefile opens files for root (or any user) in directories where
// another user may once have planted something: a log directory, a
// PostgreSQL data directory. Nothing here follows a symbolic link at the
// last component of a path, opens a FIFO or a device, or writes to a file
// that another user owns or that has another name (a hard link) elsewhere.
// Files are changed through their open descriptor (fchmod, fchown), never
// by path. It is a leaf package: systemd, the stack and the host side use
// it.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"
)

// ErrUnsafe is a path that is not a plain file of the expected owner, or a
// directory others may write.
var ErrUnsafe = errors.New("unsafe path")

// Own is the effective user: the owner OpenAppend expects.
func Own() int { return os.Geteuid() }

// OpenAppend opens path for appending, creating it with mode perm, and
// makes it mode perm (through the descriptor). What is at path and is not
// a regular file of the effective user with one link (a symbolic link, a
// FIFO, a device, a directory, another user's file, a hard link to a file
// elsewhere) is removed, never opened, and a new empty file takes its
// place; a new file is created with O_EXCL, so a link planted between the
// removal and the creation fails the call instead of being followed.
func OpenAppend(path string, perm os.FileMode) (*os.File, error) {
	f, err := openExisting(path)
	if errors.Is(err, fs.ErrNotExist) {
		f, err = create(path, perm)
		if errors.Is(err, fs.ErrExist) { // another opener made it meanwhile: take it, as checked
			f, err = openExisting(path)
		}
	}
	if err != nil {
		return nil, err
	}
	if err := f.Chmod(perm); err != nil {
		f.Close()
		return nil, fmt.Errorf("chmod %s: %w", path, err)
	}
	return f, nil
}

// Prepare is OpenAppend and Close: it leaves a regular file of the
// effective user with mode perm at path, for a program that opens path by
// name afterwards (a service manager's StandardOutput=append:, a GHC
// runtime's -S file).
func Prepare(path string, perm os.FileMode) error {
	f, err := OpenAppend(path, perm)
	if err != nil {
		return err
	}
	return f.Close()
}

// PrepareFor is Prepare for a file another user writes (a target that
// runs as its own user): the file is made afresh (a file of ours with one
// link is the only one OpenAppend keeps, and one given away is not ours)
// and given to uid:gid through its descriptor. Its directory must be one
// that user cannot change, or it could swap the file for a link.
func PrepareFor(path string, perm os.FileMode, uid, gid int) error {
	f, err := OpenAppend(path, perm)
	if err != nil {
		return err
	}
	if uid != Own() {
		if err := f.Truncate(0); err != nil {
			f.Close()
			return fmt.Errorf("truncate %s: %w", path, err)
		}
		if err := f.Chown(uid, gid); err != nil {
			f.Close()
			return fmt.Errorf("chown %s: %w", path, err)
		}
	}
	return f.Close()
}

// openExisting opens what is at path for appending when it is a regular
// file of ours with one link; anything else there is removed and
// fs.ErrNotExist returned.
func openExisting(path string) (*os.File, error) {
	// O_NONBLOCK: opening a FIFO does not wait for a reader; O_NOFOLLOW: a
	// symbolic link fails with ELOOP.
	fd, err := unix.Open(path, unix.O_WRONLY|unix.O_APPEND|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC|unix.O_NOCTTY, 0)
	if errors.Is(err, unix.ENOENT) {
		return nil, fs.ErrNotExist
	}
	if err == nil {
		f := os.NewFile(uintptr(fd), path)
		if why := notOurs(f, Own()); why == "" {
			if err := clearNonblock(fd); err != nil {
				f.Close()
				return nil, fmt.Errorf("open %s: %w", path, err)
			}
			return f, nil
		}
		f.Close()
	} else if !errors.Is(err, unix.ELOOP) && !errors.Is(err, unix.ENXIO) && !errors.Is(err, unix.EISDIR) &&
		!errors.Is(err, unix.EACCES) && !errors.Is(err, unix.EPERM) && !errors.Is(err, unix.ETXTBSY) {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	// Not a plain file of ours: take it away (unlink removes a link, not
	// its target). A directory is not removed: refuse.
	if err := unix.Unlink(path); err != nil && !errors.Is(err, unix.ENOENT) {
		return nil, fmt.Errorf("%s is not a regular file of uid %d and cannot be removed: %w (%w)", path, Own(), err, ErrUnsafe)
	}
	return nil, fs.ErrNotExist
}

func create(path string, perm os.FileMode) (*os.File, error) {
	fd, err := unix.Open(path, unix.O_WRONLY|unix.O_APPEND|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_NOCTTY, uint32(perm.Perm()))
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", path, err)
	}
	return os.NewFile(uintptr(fd), path), nil
}

func clearNonblock(fd int) error {
	flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
	if err != nil {
		return err
	}
	_, err = unix.FcntlInt(uintptr(fd), unix.F_SETFL, flags&^unix.O_NONBLOCK)
	return err
}

// notOurs says why the open file is not a regular file of uid with one
// link ("" when it is).
func notOurs(f *os.File, uid int) string {
	fi, err := f.Stat()
	if err != nil {
		return err.Error()
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	switch {
	case !fi.Mode().IsRegular():
		return "not a regular file (" + fi.Mode().Type().String() + ")"
	case !ok:
		return "no owner"
	case uid >= 0 && int(st.Uid) != uid:
		return fmt.Sprintf("owned by uid %d, not %d", st.Uid, uid)
	case st.Nlink != 1:
		return fmt.Sprintf("it has %d links", st.Nlink)
	}
	return ""
}

// RemoveUnsafe removes what is at path unless it is missing or a regular
// file of the effective user with one link: a link, a FIFO, another user's
// file, a directory (with what it holds). It never follows a link.
func RemoveUnsafe(path string) error {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && fi.Mode().IsRegular() && int(st.Uid) == Own() && st.Nlink == 1 {
		return nil
	}
	if err := os.RemoveAll(path); err != nil {
		return fmt.Errorf("remove %s (not a regular file of uid %d): %w", path, Own(), err)
	}
	return nil
}

// ReadFile reads path without following a symbolic link at its last
// component, and only when it is a regular file with one link owned by
// uid (-1: by anybody).
func ReadFile(path string, uid int) ([]byte, error) {
	f, err := Open(path, uid)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// Open opens path for reading under the rules of ReadFile.
func Open(path string, uid int) (*os.File, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC|unix.O_NOCTTY, 0)
	if errors.Is(err, unix.ENOENT) {
		return nil, fmt.Errorf("open %s: %w", path, fs.ErrNotExist)
	}
	if errors.Is(err, unix.ELOOP) {
		return nil, fmt.Errorf("open %s: a symbolic link (%w)", path, ErrUnsafe)
	}
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	f := os.NewFile(uintptr(fd), path)
	if why := notOurs(f, uid); why != "" {
		f.Close()
		return nil, fmt.Errorf("open %s: %s (%w)", path, why, ErrUnsafe)
	}
	return f, nil
}

// CheckPrivateDir fails unless no user but root and the effective user can
// add, remove or rename an entry in dir, or replace dir or a directory
// above it: each is owned by one of them, and only a sticky directory
// (/tmp) above dir may be writable by others. A program that opens files
// in dir by name (and follows links) then opens what root or we put there.
func CheckPrivateDir(dir string) error {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return err
	}
	real, err = filepath.Abs(real)
	if err != nil {
		return err
	}
	for d, first := real, true; ; d, first = filepath.Dir(d), false {
		fi, err := os.Lstat(d)
		if err != nil {
			return err
		}
		st, ok := fi.Sys().(*syscall.Stat_t)
		if !ok || !fi.IsDir() {
			return fmt.Errorf("%s: not a directory (%w)", d, ErrUnsafe)
		}
		if st.Uid != 0 && int(st.Uid) != Own() {
			return fmt.Errorf("%s belongs to uid %d, who could plant files in %s (%w)", d, st.Uid, dir, ErrUnsafe)
		}
		if fi.Mode().Perm()&0o022 != 0 && (first || fi.Mode()&os.ModeSticky == 0) {
			return fmt.Errorf("%s is writable by group or others (mode %04o), who could plant files in %s (%w)", d, fi.Mode().Perm(), dir, ErrUnsafe)
		}
		if filepath.Dir(d) == d {
			return nil
		}
	}
}
