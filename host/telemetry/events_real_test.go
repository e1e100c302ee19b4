package telemetry

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
)

// unitState is a Target.State for a user unit, read with systemctl.
func unitState(unit string) func(context.Context) (int, int, error) {
	return func(ctx context.Context) (int, int, error) {
		out, err := exec.CommandContext(ctx, "systemctl", "--user", "show", unit, "-p", "MainPID", "-p", "NRestarts", "--value").Output()
		if err != nil {
			return 0, 0, fmt.Errorf("systemctl show %s: %w", unit, err)
		}
		var pid, n int
		if _, err := fmt.Sscan(string(out), &pid, &n); err != nil {
			return 0, 0, fmt.Errorf("systemctl show %s: %q: %w", unit, out, err)
		}
		return pid, n, nil
	}
}

func findEvent(ev []Event, kind string) (Event, bool) {
	i := slices.IndexFunc(ev, func(e Event) bool { return e.Kind == kind })
	if i < 0 {
		return Event{}, false
	}
	return ev[i], true
}

func startWatcher(t *testing.T, w *Watcher) {
	t.Helper()
	if err := w.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Stop() })
}

// TestOOMKillInUnit provokes a real memcg OOM kill of a unit's main
// process (MemoryMax=32M) and checks the event names the unit's cgroup,
// the killed PID and a time inside the test.
func TestOOMKillInUnit(t *testing.T) {
	unit := fmt.Sprintf("labtest-oom-%d.service", os.Getpid())
	cg := "/app.slice/" + unit
	w := NewWatcher(Target{Source: "hog", ControlGroup: cg, State: unitState(unit)})
	w.RestartGrace = 500 * time.Millisecond
	w.SetContext(map[string]string{"variant": "oom-test", "rate": "0"})
	start := time.Now()
	systemdRun(t, unit, []string{"MemoryMax=32M", "Environment=" + allocEnv + "=1"}, os.Args[0])
	startWatcher(t, w)
	if w.KmsgErr() != nil {
		labtest.Need(t, "kernel log not readable (needs root): %v", w.KmsgErr())
	}
	var pid int
	waitFor(t, 5*time.Second, "the hog's main PID", func() bool { pid = mainPID(t, unit); return pid > 0 })
	// The kernel log is the machine's: an OOM kill elsewhere (another
	// package's test under MemoryMax, run beside this one) is an event
	// too, named by its own cgroup. The hog's is the one in its cgroup.
	ownOOM := func(ev []Event) (Event, bool) {
		i := slices.IndexFunc(ev, func(e Event) bool { return e.Kind == KindOOMKill && e.Cgroup == cg })
		if i < 0 {
			return Event{}, false
		}
		return ev[i], true
	}
	waitFor(t, 15*time.Second, "an oom-kill in the hog's cgroup and a crash event", func() bool {
		ev := w.Events()
		_, oom := ownOOM(ev)
		_, crash := findEvent(ev, KindCrash)
		return oom && crash
	})
	ev := w.Stop()
	oom, _ := ownOOM(ev)
	if oom.Source != "hog" || oom.Cgroup != cg || oom.PID != pid || oom.Context["variant"] != "oom-test" {
		t.Errorf("oom event %+v; want source hog, cgroup %s, pid %d", oom, cg, pid)
	}
	if oom.T.Before(start.Add(-time.Second)) || oom.T.After(time.Now()) {
		t.Errorf("oom event time %v outside the test [%v, now]", oom.T, start)
	}
	if crash, _ := findEvent(ev, KindCrash); crash.PID != pid {
		t.Errorf("crash event %+v, want pid %d", crash, pid)
	}
	if props := unitProps(t, unit, "Result", "ExecMainStatus"); props["Result"] != "oom-kill" && props["ExecMainStatus"] != "9" {
		t.Errorf("unit %s: %v, want killed by SIGKILL or Result=oom-kill", unit, props)
	}
	for _, e := range ev {
		t.Logf("event: %s", e)
	}
}

// TestOOMKillCounterWithoutKmsg kills a child of a unit that stays up, with
// the kernel log unavailable: the cgroup's oom_kill counter must report it.
func TestOOMKillCounterWithoutKmsg(t *testing.T) {
	unit := unitName("oomcnt")
	cg := "/app.slice/" + unit
	w := NewWatcher(Target{Source: "hog", ControlGroup: cg})
	w.kmsgPath = "/nonexistent/kmsg"
	systemdRun(t, unit, []string{"MemoryMax=32M"}, "/bin/sh", "-c",
		fmt.Sprintf("%s=1 %s; exec sleep 600", allocEnv, strconv.Quote(os.Args[0])))
	waitFor(t, 5*time.Second, "the unit's cgroup", func() bool { _, ok, _ := DefaultFS.OOMKills(cg); return ok })
	startWatcher(t, w)
	if w.KmsgErr() == nil {
		t.Fatal("kernel log opened from a path that does not exist")
	}
	waitFor(t, 15*time.Second, "an oom-kill event from the counter", func() bool {
		_, ok := findEvent(w.Events(), KindOOMKill)
		return ok
	})
	oom, _ := findEvent(w.Events(), KindOOMKill)
	if n, ok, err := DefaultFS.OOMKills(cg); n != 1 || !ok || err != nil {
		t.Errorf("OOMKills(%s) = %d %v %v, want 1", cg, n, ok, err)
	}
	if oom.Source != "hog" || oom.Cgroup != cg {
		t.Errorf("event %+v", oom)
	}
	t.Logf("event: %s", oom)
}

// TestCrashRestartInUnit kills -9 the main process of a Restart=always
// unit: the watcher must report one restart naming the killed PID.
func TestCrashRestartInUnit(t *testing.T) {
	unit := unitName("crash")
	cg := systemdRun(t, unit, []string{"Restart=always", "RestartSec=200ms", "StartLimitIntervalSec=0"}, "/bin/sleep", "600")
	var pid int
	waitFor(t, 5*time.Second, "the main PID", func() bool { pid = mainPID(t, unit); return pid > 0 })
	w := NewWatcher(Target{Source: "sleeper", ControlGroup: cg, State: unitState(unit)})
	w.SetContext(map[string]string{"trial": "7"})
	startWatcher(t, w)
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	waitFor(t, 10*time.Second, "a restart event", func() bool { _, ok := findEvent(w.Events(), KindRestart); return ok })
	var newPID int
	waitFor(t, 5*time.Second, "the new main PID", func() bool { newPID = mainPID(t, unit); return newPID > 0 && newPID != pid })
	ev := w.Stop()
	r, _ := findEvent(ev, KindRestart)
	if r.Source != "sleeper" || r.PID != pid || r.Cgroup != cg || r.Context["trial"] != "7" || r.T.Before(killed) {
		t.Errorf("restart event %+v; want pid %d after %v", r, pid, killed)
	}
	if len(ev) != 1 {
		t.Errorf("want exactly one event, got %v", ev)
	}
	if n := unitProps(t, unit, "NRestarts")["NRestarts"]; n != "1" {
		t.Errorf("NRestarts = %s", n)
	}
	t.Logf("event: %s", r)
}

// TestKmsgReaderFollows writes a record to the kernel log (root) and
// reads it back, stamped with the current time, after a Next that timed
// out on the quiet log.
func TestKmsgReaderFollows(t *testing.T) {
	k, err := OpenKmsg()
	if err != nil {
		labtest.Need(t, "kernel log not readable (needs root): %v", err)
	}
	defer k.Close()
	w, err := os.OpenFile("/dev/kmsg", os.O_WRONLY, 0)
	if err != nil {
		labtest.Need(t, "kernel log not writable (needs root): %v", err)
	}
	defer w.Close()
	msg := fmt.Sprintf("pgrst-lab telemetry test %d", time.Now().UnixNano())
	before := time.Now()
	if _, err := fmt.Fprintf(w, "<6>%s\n", msg); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		r, err := k.Next(deadline)
		if err != nil {
			t.Fatalf("record %q not read: %v", msg, err)
		}
		if r.Message != msg {
			continue // another writer's record
		}
		if d := r.T.Sub(before); d < -50*time.Millisecond || d > time.Second {
			t.Errorf("record time %v is %v from the write", r.T, d)
		}
		break
	}
	if _, err := k.Next(time.Now().Add(50 * time.Millisecond)); err == nil {
		// Other writers may log meanwhile; a timeout is the usual outcome.
		t.Log("another kernel record arrived during the quiet check")
	} else if !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("Next on a quiet log: %v, want a deadline error", err)
	}
}
