package systemd

import (
	"fmt"
	"strings"
)

// LogTailLines is how many lines of a unit's log an error carries.
const LogTailLines = 20

// UnitError reports a unit operation that did not succeed: a job result
// other than "done", a process that could not be started, or a unit that
// died while the lab waited for it. It carries the unit's state and the
// tail of its log, so the message alone explains the failure.
type UnitError struct {
	Unit    string
	Op      string // start, stop, restart, reload, wait-ready
	Result  string // job result ("failed", "timeout", ...) or a short reason
	Props   *Props // state after the failure, when it could be read
	LogTail string
	Err     error // underlying error, if any
}

func (e *UnitError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: %s", e.Op, e.Unit, e.Result)
	if e.Err != nil {
		fmt.Fprintf(&b, ": %v", e.Err)
	}
	if p := e.Props; p != nil {
		fmt.Fprintf(&b, " (ActiveState=%s SubState=%s Result=%s ExecMainCode=%d ExecMainStatus=%d)",
			p.ActiveState, p.SubState, p.Result, p.ExecMainCode, p.ExecMainStatus)
		if hint := exitHints[p.ExecMainStatus]; hint != "" && p.ExecMainCode == 1 {
			fmt.Fprintf(&b, "\nstatus %d means %s", p.ExecMainStatus, hint)
		}
	}
	if t := strings.TrimRight(e.LogTail, "\n"); t != "" {
		fmt.Fprintf(&b, "\nlast lines of its log:\n%s", indent(t))
	} else {
		b.WriteString("\n(its log is empty or unavailable; set UnitSpec.LogFile to keep the output)")
	}
	return b.String()
}

func (e *UnitError) Unwrap() error { return e.Err }

// exitHints explain systemd's own exit statuses (systemd.exec(5)).
var exitHints = map[int]string{
	200: "CHDIR: WorkingDirectory= is missing or not accessible",
	203: "EXEC: the command could not be executed (check ExecStart[0] exists and is executable for User=)",
	209: "STDOUT: the LogFile could not be opened",
	217: "USER: User= does not exist",
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(s, "\n", "\n    ")
}

// unitError builds a UnitError, reading the unit's state and log from c
// with whatever time ctx leaves (a fresh short deadline when ctx is done).
func unitError(c Controller, unit, op, result string, err error) *UnitError {
	ctx, cancel := shortContext()
	defer cancel()
	ue := &UnitError{Unit: unit, Op: op, Result: result, Err: err}
	if p, perr := c.Properties(ctx, unit); perr == nil {
		ue.Props = &p
	}
	if t, terr := c.LogTail(ctx, unit, LogTailLines); terr == nil {
		ue.LogTail = t
	} else {
		ue.LogTail = "(log unavailable: " + terr.Error() + ")"
	}
	return ue
}
