package systemd_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/systemd"
	"github.com/pgrst-lab/pgrst-lab/systemd/internal/servicetest"
)

func newDBus(t *testing.T, opts systemd.DBusOptions) *systemd.DBus {
	t.Helper()
	labtest.RequireSystemd(t)
	ctl, err := systemd.NewDBus(servicetest.Ctx(t), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ctl.Close() })
	return ctl
}

func memoryMax(t *testing.T, d *systemd.DBus, name string) uint64 {
	t.Helper()
	p, err := d.Conn().GetUnitTypePropertyContext(servicetest.Ctx(t), name, "Service", "MemoryMax")
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
	d := newDBus(t, systemd.DBusOptions{})
	s := servicetest.InstallServer(t, d, nil)
	servicetest.Start(t, s)
	if got := memoryMax(t, d, s.Spec.Name); got != ^uint64(0) {
		t.Fatalf("MemoryMax before the drop-in: %d, want infinity", got)
	}
	admin := filepath.Join(d.UnitDir(), s.Spec.Name+".d", "10-admin.conf")
	if err := d.SetDropIn(servicetest.Ctx(t), s.Spec.Name, "mem", map[string]string{"MemoryMax": "200M"}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(admin, []byte("[Service]\nEnvironment=ADMIN=1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	servicetest.Restart(t, s)
	if got := memoryMax(t, d, s.Spec.Name); got != 200<<20 {
		t.Fatalf("MemoryMax after the drop-in: %d, want %d", got, 200<<20)
	}
	removed, err := d.RemoveLabDropIns(servicetest.Ctx(t), s.Spec.Name)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(removed, []string{"50-lab-mem.conf"}) {
		t.Fatalf("removed %q", removed)
	}
	if _, err := os.Stat(admin); err != nil {
		t.Fatalf("RemoveLabDropIns touched a drop-in the lab did not write: %v", err)
	}
	servicetest.Restart(t, s)
	if got := memoryMax(t, d, s.Spec.Name); got != ^uint64(0) {
		t.Fatalf("MemoryMax after removing the drop-in: %d, want infinity", got)
	}
	if !slices.Contains(servicetest.EnvironOf(t, servicetest.Props(t, d, s.Spec.Name).MainPID), "ADMIN=1") {
		t.Fatal("the admin's drop-in is not applied")
	}
}

// Over the session bus (dbus-daemon) job results arrive too.
func TestDBusSessionBus(t *testing.T) {
	d := newDBus(t, systemd.DBusOptions{Transport: systemd.TransportBus})
	if !strings.Contains(d.Describe(), "session bus") || d.Kind() != "systemd-user" {
		t.Fatalf("Kind %q Describe %q", d.Kind(), d.Describe())
	}
	s := servicetest.InstallServer(t, d, nil)
	servicetest.Start(t, s)
	servicetest.Restart(t, s)
	if p := servicetest.Props(t, d, s.Spec.Name); p.ActiveState != "active" || !strings.HasSuffix(p.ControlGroup, "/"+s.Spec.Name) {
		t.Fatalf("props over the session bus: %+v", p)
	}
}

func TestDBusBadUnitDoesNotLoad(t *testing.T) {
	d := newDBus(t, systemd.DBusOptions{})
	// "ExecStart=" empties the command list: systemd refuses the unit.
	spec := systemd.UnitSpec{Name: servicetest.UnitName(), ExecStart: []string{"/bin/true"}, Extra: map[string]string{"ExecStart": ""}}
	t.Cleanup(func() { d.Uninstall(context.Background(), spec.Name) })
	err := d.Install(servicetest.Ctx(t), spec)
	if err == nil {
		t.Fatal("a unit without ExecStart installed without error")
	}
	for _, want := range []string{spec.Name, "LoadState=bad-setting", d.UnitDir()} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
}

// A unit the lab did not write keeps systemd's default start limit (5 starts
// in 10 s); Restart resets the failed state and with it the rate limiter,
// so rapid restarts still work.
func TestDBusRapidRestartsOfForeignUnit(t *testing.T) {
	d := newDBus(t, systemd.DBusOptions{})
	name, addr := servicetest.UnitName(), servicetest.FreePort(t)
	path := filepath.Join(d.UnitDir(), name)
	unit := "[Unit]\nDescription=unit without StartLimitIntervalSec=0\n\n[Service]\nType=exec\nExecStart=" +
		systemd.QuoteCommand([]string{servicetest.LabServer(t), "-addr", addr}) + "\n"
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
	if err := d.Conn().ReloadContext(servicetest.Ctx(t)); err != nil {
		t.Fatal(err)
	}
	s := servicetest.Server{Ctl: d, Spec: systemd.UnitSpec{Name: name}, Addr: addr}
	servicetest.Start(t, s)
	for range 10 {
		servicetest.Restart(t, s)
	}
	if p := servicetest.Props(t, d, name); p.ActiveState != "active" || p.Result != "success" {
		t.Fatalf("after 11 starts in a few seconds: %+v", p)
	}
}
