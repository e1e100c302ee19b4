package systemd

import "testing"

func TestPropsExit(t *testing.T) {
	for _, c := range []struct {
		p    Props
		want string
	}{
		{Props{ExecMainCode: 1, ExecMainStatus: 251, Result: "exit-code"}, "exit status 251"},
		{Props{ExecMainCode: 2, ExecMainStatus: 9, Result: "signal"}, "signal SIGKILL"},
		{Props{ExecMainCode: 3, ExecMainStatus: 11, Result: "core-dump"}, "signal SIGSEGV (core dumped)"},
		{Props{ExecMainCode: 2, ExecMainStatus: 9, Result: "oom-kill"}, "signal SIGKILL, killed by the OOM killer"},
		{Props{MainPID: 42, Result: "success"}, ""},
	} {
		if got := c.p.Exit(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.p, got, c.want)
		}
	}
}
