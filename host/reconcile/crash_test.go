package reconcile

import (
	"context"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/host/stack"
	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/loadgen"
	"github.com/pgrst-lab/pgrst-lab/loadgen/trial"
	"github.com/pgrst-lab/pgrst-lab/systemd"
)

// TestTargetDeathIsAFatalEvent: a target that dies in a trial's window is
// a fatal event of that window, named with its cause, under systemd and
// under the direct supervisor; so is one that dies before the window, in
// the trial's warm-up. The real PostgREST with +RTS -M4m -RTS
// exhausts its heap under GETAllEmbed (the GHC runtime then exits with
// status 251); postgrest-mini is killed with SIGKILL. Before, a death in
// the last seconds of a window (RestartGrace, 5 s) gave no event at all,
// and the next variant's restart erased it. A window cannot start on the
// dead target either.
func TestTargetDeathIsAFatalEvent(t *testing.T) {
	for _, tg := range targets {
		for _, sup := range []systemd.Mode{systemd.ModeSystemd, systemd.ModeDirect} {
			t.Run(tg.name+"/"+string(sup), func(t *testing.T) {
				l, st := localOn(t, stack.Options{Supervisor: sup, Postgrest: tg.binary(t)})
				if tg.reference {
					killedInWindow(t, l, st)
					killedBeforeWindow(t, l)
				} else {
					heapExhaustedInWindow(t, l, st)
				}
				if err := l.Restore(context.Background()); err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}

// heapExhaustedInWindow applies a 4 MB heap limit and loads GETAllEmbed
// until the target is gone.
func heapExhaustedInWindow(t *testing.T, l *Server, st stack.Status) {
	ctx := context.Background()
	if _, err := l.Apply(ctx, lab.Variant{Name: "m4", Args: []string{"+RTS", "-M4m", "-RTS"}}); err != nil {
		t.Fatal(err)
	}
	pid := mainPID(t, l)
	w, err := l.Watch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	loadUntilGone(t, l, st, "GETAllEmbed", pid)
	tel, err := w.Stop(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	ev := fatalOf(t, tel.Events, pid)
	for _, want := range []string{"Heap exhausted", "+RTS -M"} {
		if !strings.Contains(ev.Detail, want) {
			t.Errorf("event %q does not say %q", ev.Detail, want)
		}
	}
	if p, _ := l.cfg.Ctl.Properties(ctx, l.cfg.TargetUnit); p.ExecMainCode == 1 && !strings.Contains(ev.Detail, "exit status 251") {
		t.Errorf("event %q: the manager recorded exit status %d", ev.Detail, p.ExecMainStatus)
	}
	notRunningRefused(t, l)
}

// killedInWindow kills the target's main process with SIGKILL under load.
func killedInWindow(t *testing.T, l *Server, st stack.Status) {
	ctx := context.Background()
	pid := mainPID(t, l)
	w, err := l.Watch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	lctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		ld := &trial.Loader{Target: loadgen.Target{URL: st.URL}}
		_, _ = ld.Load(lctx, lab.LoadSpec{Scenario: "GETSingle", Seed: 1,
			Load: lab.Load{Model: lab.ModelClosed, Connections: 2, Duration: time.Minute, Timeout: 5 * time.Second}})
	}()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	labtest.WaitFor(t, "the killed target gone", func() bool { return gone(l, pid) })
	cancel()
	<-done
	tel, err := w.Stop(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	ev := fatalOf(t, tel.Events, pid)
	if p, _ := l.cfg.Ctl.Properties(ctx, l.cfg.TargetUnit); p.ExecMainCode == 2 && !strings.Contains(ev.Detail, "signal SIGKILL") {
		t.Errorf("event %q does not name the signal the manager recorded (%d)", ev.Detail, p.ExecMainStatus)
	}
	notRunningRefused(t, l)
}

// killedBeforeWindow: a target killed after the lab's restart and before
// the window (in a trial's warm-up) is that window's event, not a window
// refused.
func killedBeforeWindow(t *testing.T, l *Server) {
	ctx := context.Background()
	if err := l.Restore(ctx); err != nil { // restarts the dead target
		t.Fatal(err)
	}
	pid := mainPID(t, l)
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	labtest.WaitFor(t, "the killed target gone", func() bool { return gone(l, pid) })
	w, err := l.Watch(ctx)
	if err != nil {
		t.Fatalf("a window after a death in the warm-up: %v", err)
	}
	tel, err := w.Stop(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	fatalOf(t, tel.Events, pid)
	notRunningRefused(t, l)
}

// loadUntilGone runs scenario against the target (8 connections) until its
// main process pid is gone, for at most a minute.
func loadUntilGone(t *testing.T, l *Server, st stack.Status, scenario string, pid int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		ld := &trial.Loader{Target: loadgen.Target{URL: st.URL}}
		_, _ = ld.Load(ctx, lab.LoadSpec{Scenario: scenario, Seed: 1,
			Load: lab.Load{Model: lab.ModelClosed, Connections: 8, Duration: time.Minute, Timeout: 10 * time.Second}})
	}()
	for !gone(l, pid) {
		select {
		case <-done:
			t.Fatalf("the target (pid %d) survived a minute of %s", pid, scenario)
		case <-time.After(50 * time.Millisecond):
		}
	}
	cancel()
	<-done
}

// gone reports whether pid is no longer the target's main process.
func gone(l *Server, pid int) bool {
	p, err := l.cfg.Ctl.Properties(context.Background(), l.cfg.TargetUnit)
	return err == nil && p.MainPID != pid
}

// fatalOf finds the one fatal event of the target naming pid.
func fatalOf(t *testing.T, evs []lab.Event, pid int) lab.Event {
	t.Helper()
	var found []lab.Event
	for _, e := range evs {
		if e.Source == "postgrest" && e.Fatal() {
			found = append(found, e)
		}
	}
	if len(found) != 1 || found[0].PID != pid {
		t.Fatalf("want one fatal event of the target's pid %d in the window, got %+v", pid, evs)
	}
	t.Logf("event: %s %s", found[0].Kind, found[0].Detail)
	return found[0]
}

// notRunningRefused: a window does not start on the dead target.
func notRunningRefused(t *testing.T, l *Server) {
	t.Helper()
	if w, err := l.Watch(context.Background()); err == nil {
		_, _ = w.Stop(context.Background(), 0)
		t.Error("a window started on a target that is not running")
	} else if !strings.Contains(err.Error(), "not running") {
		t.Errorf("window on the dead target: %v", err)
	}
}
