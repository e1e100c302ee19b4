package stack

import (
	"context"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/systemd"
)

func TestSupervisorChoice(t *testing.T) {
	t.Setenv("LAB_SUPERVISOR", "direct")
	if got, err := (Options{}).supervisor(); err != nil || got != systemd.ModeDirect {
		t.Errorf("LAB_SUPERVISOR=direct: %q %v", got, err)
	}
	if got, err := (Options{Supervisor: "systemd"}).supervisor(); err != nil || got != systemd.ModeSystemd {
		t.Errorf("flag beats env: %q %v", got, err)
	}
	t.Setenv("LAB_SUPERVISOR", "")
	if got, err := (Options{}).supervisor(); err != nil || got != systemd.ModeAuto {
		t.Errorf("default: %q %v", got, err)
	}
}

// With no systemd user manager reachable, auto falls back to supervising
// directly, and asking for systemd fails saying what to do.
func TestAutoFallsBackToDirect(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir()) // no manager socket, no session bus there
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
	ctrl, err := connect(context.Background(), dir, systemd.ModeAuto, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	defer ctrl.Close()
	if ctrl.Kind() != systemd.KindDirect {
		t.Errorf("auto without a manager chose %s", ctrl.Kind())
	}
	_, err = connect(context.Background(), dir, systemd.ModeSystemd, nil)
	if err == nil {
		t.Fatal("systemd without a manager: no error")
	}
	oneLine(t, err, "--supervisor direct")
}
