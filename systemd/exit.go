package systemd

import (
	"fmt"
	"syscall"
)

// Exit says how the unit's main process last ended, from ExecMainCode and
// ExecMainStatus: "exit status 251", "signal SIGKILL", "signal SIGSEGV
// (core dumped)", and "killed by the OOM killer" when Result says so; ""
// when no exit is recorded (the process runs, or a manager restarted it
// and reset the record, or the direct supervisor did not see it end).
func (p Props) Exit() string {
	var s string
	switch p.ExecMainCode {
	case 1: // CLD_EXITED
		s = fmt.Sprintf("exit status %d", p.ExecMainStatus)
	case 2: // CLD_KILLED
		s = "signal " + SignalName(syscall.Signal(p.ExecMainStatus))
	case 3: // CLD_DUMPED
		s = "signal " + SignalName(syscall.Signal(p.ExecMainStatus)) + " (core dumped)"
	}
	if p.Result == "oom-kill" {
		if s != "" {
			s += ", "
		}
		s += "killed by the OOM killer"
	}
	return s
}
