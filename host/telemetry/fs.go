package telemetry

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// FS says where the collectors find procfs and the cgroup file systems.
// Tests point it at a fixture tree under testdata/.
type FS struct {
	Proc   string // procfs mount, "/proc"
	Cgroup string // cgroup mount root, "/sys/fs/cgroup"
}

// DefaultFS is the running host's procfs and cgroup mount.
var DefaultFS = FS{Proc: "/proc", Cgroup: "/sys/fs/cgroup"}

func (fs FS) proc(parts ...string) string {
	return filepath.Join(append([]string{fs.Proc}, parts...)...)
}

// readFile reads a small file (procfs, cgroupfs) into buf with plain
// syscalls: os.Open would also try to register the file with the poller,
// which costs a syscall per read at 10 Hz times every process.
func readFile(path string, buf []byte) ([]byte, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	n := 0
	for {
		if n == len(buf) {
			return buf[:n], fmt.Errorf("read %s: larger than %d bytes", path, len(buf))
		}
		m, err := syscall.Read(fd, buf[n:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "read", Path: path, Err: err}
		}
		if m == 0 {
			return buf[:n], nil
		}
		n += m
	}
}
