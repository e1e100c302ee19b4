package safefile

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// Append appends data to the file at path, creating it with mode perm when
// it is missing, for a file another program names to us by path (GitHub
// Actions' $GITHUB_STEP_SUMMARY). It follows no symbolic link: a link at
// the last component (also a dangling one), a FIFO, a device, a directory
// or a file with another name elsewhere (a hard link) is refused with
// ErrUnsafe before anything is written, and never opened for writing
// through. Unlike OpenAppend it neither removes what is there nor checks
// its owner or changes its mode: the file may belong to the program that
// named it (a runner on the host of a container job).
func Append(path string, data []byte, perm os.FileMode) error {
	// O_NONBLOCK: a FIFO without a reader fails (ENXIO) instead of waiting.
	fd, err := unix.Open(path, unix.O_WRONLY|unix.O_APPEND|unix.O_CREAT|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC|unix.O_NOCTTY, uint32(perm.Perm()))
	switch {
	case errors.Is(err, unix.ELOOP):
		return fmt.Errorf("append to %s: a symbolic link; give the file itself (%w)", path, ErrUnsafe)
	case errors.Is(err, unix.ENXIO):
		return fmt.Errorf("append to %s: not a regular file (a FIFO or a device) (%w)", path, ErrUnsafe)
	case err != nil:
		return &os.PathError{Op: "append to", Path: path, Err: err}
	}
	f := os.NewFile(uintptr(fd), path)
	if why := notOurs(f, -1); why != "" {
		f.Close()
		return fmt.Errorf("append to %s: %s (%w)", path, why, ErrUnsafe)
	}
	if err := clearNonblock(fd); err != nil {
		f.Close()
		return fmt.Errorf("append to %s: %w", path, err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
