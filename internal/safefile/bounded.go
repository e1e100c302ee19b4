package safefile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// ReadBounded reads a regular file of at most limit bytes, for files
// someone else names (an experiment's targets or body files). It opens
// with O_NONBLOCK (a FIFO does not block the open) and checks the opened
// file (fstat), so that a FIFO, a device (/dev/zero) or a directory is
// refused, also behind a symbolic link, before anything is read; a file
// that grows past limit while it is read is refused too. It follows
// symbolic links: for a path that was checked to lead somewhere, use
// ReadResolved.
func ReadBounded(path string, limit int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readOpen(f, limit)
}

// ReadResolved is ReadBounded for a path that holds no symbolic link (one
// filepath.EvalSymlinks returned, then checked to lie inside a directory):
// each component is opened relative to the one before with O_NOFOLLOW, so
// a component swapped for a symbolic link after the path was checked fails
// the read with ErrUnsafe instead of leading elsewhere. What is read is the
// file opened, checked through its descriptor (a regular file of at most
// limit bytes), never the path again. Errors are *os.PathError.
func ReadResolved(path string, limit int64) ([]byte, error) {
	f, err := openResolved(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readOpen(f, limit)
}

// errLinked is the reason ReadResolved gives for a symbolic link in the
// path.
var errLinked = fmt.Errorf("a symbolic link (or not a directory) where the checked path had none: the file changed after it was checked (%w)", ErrUnsafe)

// openResolved opens path for reading without following a symbolic link
// at any component; a FIFO does not block the open (O_NONBLOCK).
func openResolved(path string) (*os.File, error) {
	clean := filepath.Clean(path)
	dir, rest := unix.AT_FDCWD, clean
	if filepath.IsAbs(clean) {
		fd, err := unix.Open("/", unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			return nil, &os.PathError{Op: "open", Path: path, Err: err}
		}
		dir, rest = fd, strings.TrimLeft(clean, "/")
	}
	parts := strings.Split(rest, "/")
	for _, p := range parts[:len(parts)-1] {
		// O_PATH|O_DIRECTORY|O_NOFOLLOW: a symbolic link is ENOTDIR.
		fd, err := unix.Openat(dir, p, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		closeDir(dir)
		if err != nil {
			return nil, resolvedErr(path, err)
		}
		dir = fd
	}
	fd, err := unix.Openat(dir, parts[len(parts)-1], unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC|unix.O_NOCTTY, 0)
	closeDir(dir)
	if err != nil {
		return nil, resolvedErr(path, err)
	}
	return os.NewFile(uintptr(fd), path), nil
}

func closeDir(fd int) {
	if fd != unix.AT_FDCWD {
		unix.Close(fd)
	}
}

func resolvedErr(path string, err error) error {
	if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) {
		err = errLinked
	}
	return &os.PathError{Op: "open", Path: path, Err: err}
}

// readOpen reads the open file f when it is a regular file of at most
// limit bytes, also if it grows while it is read.
func readOpen(f *os.File, limit int64) ([]byte, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file (%s)", Kind(fi.Mode()))
	}
	if fi.Size() > limit {
		return nil, fmt.Errorf("larger than %d bytes", limit)
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("larger than %d bytes", limit)
	}
	return b, nil
}

// Kind names a mode that is not a regular file's.
func Kind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a FIFO"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return "mode " + m.String()
}
