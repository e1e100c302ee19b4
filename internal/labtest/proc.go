package labtest

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// ProcStatus is the value of key ("Cpus_allowed_list", "VmRSS", ...) in
// /proc/PID/status.
func ProcStatus(t testing.TB, pid int, key string) string {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, key+":"); ok {
			return strings.TrimSpace(v)
		}
	}
	t.Fatalf("/proc/%d/status has no %s", pid, key)
	return ""
}
