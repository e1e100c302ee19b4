package telemetry

import "bytes"

// clockTicks is USER_HZ, the unit of /proc/<pid>/stat times. It is 100 on
// every Linux architecture Go supports.
const clockTicks = 100

// procStat is the part of /proc/<pid>/stat the sampler uses.
type procStat struct {
	ppid                         int
	utime, stime, cutime, cstime uint64 // clock ticks
}

// cpuSeconds is the process's CPU time including its reaped children, so
// that summing over a live tree does not lose processes that exited.
func (s procStat) cpuSeconds() float64 {
	return float64(s.utime+s.stime+s.cutime+s.cstime) / clockTicks
}

// parseStat parses /proc/<pid>/stat. The command name (field 2) may hold
// spaces and parentheses, so fields are counted after the last ')'.
func parseStat(b []byte) (procStat, bool) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return procStat{}, false
	}
	var f [15][]byte // fields 3..17
	if fields(b[i+1:], f[:]) < len(f) {
		return procStat{}, false
	}
	ppid, _ := atou(f[1])
	ut, _ := atou(f[11])
	st, _ := atou(f[12])
	cut, _ := atou(f[13])
	cst, _ := atou(f[14])
	return procStat{ppid: int(ppid), utime: ut, stime: st, cutime: cut, cstime: cst}, true
}
