package direct

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

func readProcStat(pid int) (procStat, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return procStat{}, err
	}
	// The command name (field 2) may contain spaces and parentheses: cut after the last ')'.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 || i+2 >= len(s) {
		return procStat{}, fmt.Errorf("/proc/%d/stat: unexpected format", pid)
	}
	f := strings.Fields(s[i+2:]) // f[0] is field 3 (state)
	if len(f) < 20 {
		return procStat{}, fmt.Errorf("/proc/%d/stat: %d fields", pid, len(f)+2)
	}
	st, err := strconv.ParseUint(f[19], 10, 64) // field 22
	if err != nil {
		return procStat{}, fmt.Errorf("/proc/%d/stat starttime: %w", pid, err)
	}
	return procStat{State: f[0][0], StartTime: st}, nil
}

// zombie reports whether pid has exited but is not reaped yet.
func zombie(pid int) bool {
	st, err := readProcStat(pid)
	return err == nil && (st.State == 'Z' || st.State == 'X')
}

// procRSS returns the resident set size of pid in bytes (0 if unknown).
func procRSS(pid int) uint64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/statm", pid))
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseUint(f[1], 10, 64)
	if err != nil {
		return 0
	}
	return pages * uint64(os.Getpagesize())
}
