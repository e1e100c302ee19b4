package direct

import (
	"golang.org/x/sys/unix"
)

// readProcStat asks the kernel (sysctl kern.proc.pid) on macOS, where there
// is no /proc.
func readProcStat(pid int) (procStat, error) {
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil {
		return procStat{}, err
	}
	if kp.Proc.P_pid != int32(pid) {
		return procStat{}, unix.ESRCH
	}
	st := procStat{State: 'R'}
	if kp.Proc.P_stat == 5 { // SZOMB
		st.State = 'Z'
	}
	t := kp.Proc.P_starttime
	st.StartTime = uint64(t.Sec)*1_000_000 + uint64(t.Usec)
	return st, nil
}

func zombie(pid int) bool {
	st, err := readProcStat(pid)
	return err == nil && st.State == 'Z'
}

// procRSS is not available without cgo on macOS.
func procRSS(pid int) uint64 { return 0 }
