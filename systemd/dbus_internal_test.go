package systemd

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
)

// A controller that did not install the unit reads TimeoutStopSec= from the
// manager, so its Stop deadline leaves room for a slow shutdown. (An
// internal test: stopTimeout is not exported; the unit is never started.)
func TestDBusStopTimeoutFromManager(t *testing.T) {
	labtest.RequireSystemd(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dbus := func() *DBus {
		ctl, err := NewDBus(ctx, DBusOptions{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ctl.Close() })
		return ctl
	}
	a, b := dbus(), dbus()
	name := fmt.Sprintf("labtest-%d-stoptimeout.service", os.Getpid())
	spec := UnitSpec{Name: name, ExecStart: []string{"/bin/true"}, StopTimeout: 1234 * time.Millisecond}
	t.Cleanup(func() {
		if err := a.Uninstall(context.Background(), name); err != nil {
			t.Errorf("cleanup: %v", err)
		}
	})
	if err := a.Install(ctx, spec); err != nil {
		t.Fatal(err)
	}
	if got := b.stopTimeout(ctx, name); got != 1234*time.Millisecond {
		t.Fatalf("stop timeout read from the manager: %v, want 1.234s", got)
	}
}
