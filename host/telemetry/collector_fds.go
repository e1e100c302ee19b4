package telemetry

import (
	"os"
	"strconv"
)

// countFDs counts a process's open file descriptors. Since Linux 6.2 the
// size of /proc/<pid>/fd is that number (one stat call); older kernels
// report 0 and the directory is listed instead.
func (fs FS) countFDs(pid int) (int, error) {
	dir := fs.proc(strconv.Itoa(pid), "fd")
	if st, err := os.Stat(dir); err != nil {
		return 0, err
	} else if st.Size() > 0 && st.IsDir() && fs.Proc == DefaultFS.Proc {
		return int(st.Size()), nil
	}
	names, err := readDirNames(dir)
	return len(names), err
}
