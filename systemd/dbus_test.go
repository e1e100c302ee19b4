package systemd

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab/labtest"
)

func newDBus(t *testing.T, opts DBusOptions) *DBus {
	t.Helper()
	labtest.RequireSystemd(t)
	ctl, err := NewDBus(testCtx(t), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ctl.Close() })
	return ctl
}

func memoryMax(t *testing.T, d *DBus, name string) uint64 {
	t.Helper()
	p, err := d.Conn().GetUnitTypePropertyContext(testCtx(t), name, "Service", "MemoryMax")
	if err != nil {
		t.Fatal(err)
	}
	v, ok := p.Value.Value().(uint64)
	if !ok {
		t.Fatalf("MemoryMax is %T", p.Value.Value())
	}
	return v
}

// A MemoryMax= drop-in reaches the unit; RemoveLabDropIns takes it away
// and leaves drop-ins the lab did not write.
func TestDBusMemoryMaxDropIn(t *testing.T) {
	d := newDBus(t, DBusOptions{})
	s := installServer(t, d, nil)
	start(t, s)
	if got := memoryMax(t, d, s.spec.Name); got != ^uint64(0) {
		t.Fatalf("MemoryMax before the drop-in: %d, want infinity", got)
	}
	admin := filepath.Join(d.UnitDir(), s.spec.Name+".d", "10-admin.conf")
	if err := d.SetDropIn(testCtx(t), s.spec.Name, "mem", map[string]string{"MemoryMax": "200M"}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(admin, []byte("[Service]\nEnvironment=ADMIN=1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	restart(t, s)
	if got := memoryMax(t, d, s.spec.Name); got != 200<<20 {
		t.Fatalf("MemoryMax after the drop-in: %d, want %d", got, 200<<20)
	}
	removed, err := d.RemoveLabDropIns(testCtx(t), s.spec.Name)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(removed, []string{"50-lab-mem.conf"}) {
		t.Fatalf("removed %q", removed)
	}
	if _, err := os.Stat(admin); err != nil {
		t.Fatalf("RemoveLabDropIns touched a drop-in the lab did not write: %v", err)
	}
	restart(t, s)
	if got := memoryMax(t, d, s.spec.Name); got != ^uint64(0) {
		t.Fatalf("MemoryMax after removing the drop-in: %d, want infinity", got)
	}
	if !contains(environOf(t, props(t, d, s.spec.Name).MainPID), "ADMIN=1") {
		t.Fatal("the admin's drop-in is not applied")
	}
}

// Over the session bus (dbus-daemon) job results arrive too.
func TestDBusSessionBus(t *testing.T) {
	d := newDBus(t, DBusOptions{Transport: TransportBus})
	if !strings.Contains(d.Describe(), "session bus") || d.Kind() != "systemd-user" {
		t.Fatalf("Kind %q Describe %q", d.Kind(), d.Describe())
	}
	s := installServer(t, d, nil)
	start(t, s)
	restart(t, s)
	if p := props(t, d, s.spec.Name); p.ActiveState != "active" || !strings.HasSuffix(p.ControlGroup, "/"+s.spec.Name) {
		t.Fatalf("props over the session bus: %+v", p)
	}
}

func TestDBusBadUnitDoesNotLoad(t *testing.T) {
	d := newDBus(t, DBusOptions{})
	// "ExecStart=" empties the command list: systemd refuses the unit.
	spec := UnitSpec{Name: unitName(), ExecStart: []string{"/bin/true"}, Extra: map[string]string{"ExecStart": ""}}
	t.Cleanup(func() { d.Uninstall(context.Background(), spec.Name) })
	err := d.Install(testCtx(t), spec)
	if err == nil {
		t.Fatal("a unit without ExecStart installed without error")
	}
	for _, want := range []string{spec.Name, "LoadState=bad-setting", d.UnitDir()} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
}

func TestConnect(t *testing.T) {
	labtest.RequireSystemd(t)
	var msgs []string
	logf := func(f string, a ...any) { msgs = append(msgs, strings.TrimSpace(sprintf(f, a...))) }

	ctl, err := Connect(testCtx(t), ConnectOptions{Logf: logf})
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
	for mode, kind := range map[string]string{ModeUserPrivate: "systemd-user", ModeUserSession: "systemd-user", ModeUser: "systemd-user", ModeDirect: "direct"} {
		c, err := Connect(testCtx(t), ConnectOptions{Mode: mode, StateDir: t.TempDir(), Logf: logf, Timeout: 5 * time.Second})
		if err != nil {
			t.Fatalf("mode %s: %v", mode, err)
		}
		if c.Kind() != kind {
			t.Errorf("mode %s gave %s", mode, c.Kind())
		}
		c.Close()
	}
	if _, err := Connect(testCtx(t), ConnectOptions{Mode: "systemd"}); err == nil || !strings.Contains(err.Error(), "allowed: auto, system, user") {
		t.Fatalf("bad mode: %v", err)
	}
	if c, err := Connect(testCtx(t), ConnectOptions{Mode: ModeSystem}); err == nil {
		if c.Kind() != "systemd-system" {
			t.Errorf("mode system gave %s", c.Kind())
		}
		c.Close()
	} else if !strings.Contains(err.Error(), "system manager") {
		t.Errorf("mode system failed without saying which manager: %v", err)
	}
}

// A unit the lab did not write keeps systemd's default start limit (5 starts
// in 10 s); Restart resets the failed state and with it the rate limiter,
// so rapid restarts still work.
func TestDBusRapidRestartsOfForeignUnit(t *testing.T) {
	d := newDBus(t, DBusOptions{})
	name, addr := unitName(), freePort(t)
	path := filepath.Join(d.UnitDir(), name)
	unit := "[Unit]\nDescription=unit without StartLimitIntervalSec=0\n\n[Service]\nType=exec\nExecStart=" +
		QuoteCommand([]string{labServer(t), "-addr", addr}) + "\n"
	t.Cleanup(func() {
		if err := d.Uninstall(context.Background(), name); err != nil {
			t.Errorf("cleanup: %v", err)
		}
	})
	if err := os.MkdirAll(d.UnitDir(), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(unit), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := d.Conn().ReloadContext(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	s := server{ctl: d, spec: UnitSpec{Name: name}, addr: addr}
	start(t, s)
	for range 10 {
		restart(t, s)
	}
	if p := props(t, d, name); p.ActiveState != "active" || p.Result != "success" {
		t.Fatalf("after 11 starts in a few seconds: %+v", p)
	}
}

// A controller that did not install the unit reads TimeoutStopSec= from the
// manager, so its Stop deadline leaves room for a slow shutdown.
func TestDBusStopTimeoutFromManager(t *testing.T) {
	a := newDBus(t, DBusOptions{})
	s := installServer(t, a, func(s *UnitSpec) { s.StopTimeout = 1234 * time.Millisecond })
	b := newDBus(t, DBusOptions{})
	if got := b.stopTimeout(testCtx(t), s.spec.Name); got != 1234*time.Millisecond {
		t.Fatalf("stop timeout read from the manager: %v, want 1.234s", got)
	}
}
