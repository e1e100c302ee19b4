package safefile

import (
	"fmt"
	"io"
	"os"
	"syscall"
)

// ReadBounded reads a regular file of at most limit bytes, for files
// someone else names (an experiment's targets or body files). It opens
// with O_NONBLOCK (a FIFO does not block the open) and checks the opened
// file (fstat), so that a FIFO, a device (/dev/zero) or a directory is
// refused, also behind a symbolic link, before anything is read; a file
// that grows past limit while it is read is refused too.
func ReadBounded(path string, limit int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
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
