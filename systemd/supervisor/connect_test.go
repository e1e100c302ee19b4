package supervisor

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/systemd"
)

func TestConnect(t *testing.T) {
	labtest.RequireSystemd(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var msgs []string
	logf := func(f string, a ...any) { msgs = append(msgs, strings.TrimSpace(fmt.Sprintf(f, a...))) }

	ctl, err := Connect(ctx, Options{Logf: logf})
	if err != nil {
		t.Fatal(err)
	}
	defer ctl.Close()
	if len(msgs) != 1 || !strings.Contains(msgs[0], "systemd: using the systemd ") {
		t.Fatalf("Connect said %q", msgs)
	}
	t.Logf("auto: %s", msgs[0])
	if ctl.Kind() == "systemd-user" && !strings.Contains(msgs[0], "systemd/private") {
		t.Errorf("user manager chosen, but not over its private socket: %s", msgs[0])
	}

	msgs = nil
	for mode, kind := range map[systemd.Mode]systemd.Kind{systemd.ModeUserPrivate: systemd.KindSystemdUser, systemd.ModeUserSession: systemd.KindSystemdUser, systemd.ModeUser: systemd.KindSystemdUser, systemd.ModeDirect: systemd.KindDirect} {
		c, err := Connect(ctx, Options{Mode: mode, StateDir: t.TempDir(), Logf: logf, Timeout: 5 * time.Second})
		if err != nil {
			t.Fatalf("mode %s: %v", mode, err)
		}
		if c.Kind() != kind {
			t.Errorf("mode %s gave %s", mode, c.Kind())
		}
		c.Close()
	}
	if _, err := Connect(ctx, Options{Mode: "systemd"}); err == nil || !strings.Contains(err.Error(), "allowed: auto, system, user") {
		t.Fatalf("bad mode: %v", err)
	}
	if c, err := Connect(ctx, Options{Mode: systemd.ModeSystem}); err == nil {
		if c.Kind() != "systemd-system" {
			t.Errorf("mode system gave %s", c.Kind())
		}
		c.Close()
	} else if !strings.Contains(err.Error(), "system manager") {
		t.Errorf("mode system failed without saying which manager: %v", err)
	}
}
