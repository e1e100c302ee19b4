package telemetry

import (
	"context"
	"strings"
	"testing"
	"time"
)

func TestParseKmsgRecord(t *testing.T) {
	now := time.Unix(10000, 0)
	rec := "6,1234,5000000,-,caller=T42;oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=/,mems_allowed=0-1,3,oom_memcg=/app.slice/a.service,task_memcg=/app.slice/a.service/sub,task=python3,pid=4242,uid=0\n SUBSYSTEM=x\n"
	r, ok := parseKmsg([]byte(rec), now, 7*time.Second)
	if !ok || r.Seq != 1234 || !r.T.Equal(now.Add(-2*time.Second)) {
		t.Fatalf("record %+v ok=%v", r, ok)
	}
	k, ok := ParseOOMKill(r.Message)
	want := OOMKill{Constraint: "CONSTRAINT_MEMCG", OOMMemcg: "/app.slice/a.service", TaskMemcg: "/app.slice/a.service/sub", Task: "python3", PID: 4242}
	if !ok || k != want {
		t.Fatalf("oom-kill %+v ok=%v, want %+v", k, ok, want)
	}
	if !k.InCgroup("/app.slice/a.service") || k.InCgroup("/app.slice/a.serv") || k.InCgroup("") {
		t.Error("InCgroup matches wrongly")
	}
	if _, ok := ParseOOMKill("Memory cgroup out of memory: Killed process 4242 (python3)"); ok {
		t.Error("parsed a non oom-kill line")
	}
	if _, ok := parseKmsg([]byte("garbage"), now, 0); ok {
		t.Error("parsed garbage")
	}
}

func TestOOMKillsFixture(t *testing.T) {
	for cg, want := range map[string]uint64{"/app.slice/svc.service": 1, "/app.slice/pure.service": 0, "/app.slice/v1only.service": 3} {
		n, ok, err := fixture.OOMKills(cg)
		if err != nil || !ok || n != want {
			t.Errorf("%s: %d %v %v, want %d", cg, n, ok, err, want)
		}
	}
	if n, ok, _ := fixture.OOMKills("/app.slice/nope.service"); ok || n != 0 {
		t.Errorf("missing cgroup: %d %v", n, ok)
	}
}

// fakeState is a scripted (mainPID, nRestarts) sequence.
type fakeState struct{ pid, restarts int }

func (f *fakeState) get(context.Context) (int, int, error) { return f.pid, f.restarts, nil }

func TestWatcherRestartCrashExpect(t *testing.T) {
	f := &fakeState{pid: 100}
	w := NewWatcher(Target{Source: "svc", State: f.get})
	w.RestartGrace = time.Hour
	w.SetContext(map[string]string{"variant": "tcp", "trial": "3"})
	ctx := context.Background()
	step := func(pid, restarts int) { f.pid, f.restarts = pid, restarts; w.poll(ctx) }

	step(100, 0) // baseline
	step(0, 0)   // main process gone...
	step(0, 1)   // ...restarted by the manager
	step(101, 1)
	ev := w.Events()
	if len(ev) != 1 || ev[0].Kind != KindRestart || ev[0].PID != 100 || ev[0].Context["trial"] != "3" {
		t.Fatalf("after kill+restart: %v", ev)
	}

	done := w.Expect("svc") // the lab restarts it on purpose
	step(0, 1)
	step(102, 1)
	done()
	step(102, 1)
	if ev := w.Events(); len(ev) != 1 {
		t.Fatalf("expected restart reported: %v", ev)
	}

	step(0, 1) // dies, not restarted
	if ev := w.Events(); len(ev) != 1 {
		t.Fatalf("crash reported before the grace: %v", ev)
	}
	ev = w.Stop()
	if len(ev) != 2 || ev[1].Kind != KindCrash || ev[1].PID != 102 {
		t.Fatalf("crash at stop: %v", ev)
	}

	// PID replaced quickly without NRestarts: a restart not counted by the manager.
	f = &fakeState{pid: 7}
	w = NewWatcher(Target{Source: "direct", State: f.get})
	step = func(pid, restarts int) { f.pid, f.restarts = pid, restarts; w.poll(ctx) }
	step(7, 0)
	step(8, 0)
	if ev := w.Events(); len(ev) != 1 || ev[0].Kind != KindRestart || !strings.Contains(ev[0].Detail, "7 -> 8") {
		t.Fatalf("replaced: %v", ev)
	}
}

// Flush, at the end of a trial's window, reports a main process gone
// since the last poll as a crash at once (the grace is an hour here), and
// the restart that follows is that crash's, not a second event.
func TestWatcherFlushReportsCrashAtOnce(t *testing.T) {
	f := &fakeState{pid: 100}
	w := NewWatcher(Target{Source: "svc", State: f.get})
	w.RestartGrace = time.Hour
	ctx := context.Background()
	step := func(pid, restarts int) { f.pid, f.restarts = pid, restarts; w.poll(ctx) }
	step(100, 0) // baseline
	f.pid = 0    // dies between polls
	w.Flush(ctx)
	ev := w.Events()
	if len(ev) != 1 || ev[0].Kind != KindCrash || ev[0].PID != 100 {
		t.Fatalf("after the death and a flush: %v, want one crash of pid 100", ev)
	}
	step(0, 1) // the manager restarts it, after the window
	step(101, 1)
	step(101, 1)
	if ev := w.Events(); len(ev) != 1 {
		t.Fatalf("the restart after a reported crash reported again: %v", ev)
	}
	step(0, 1) // the successor dies too: a new crash
	w.Flush(ctx)
	if ev := w.Events(); len(ev) != 2 || ev[1].Kind != KindCrash || ev[1].PID != 101 {
		t.Fatalf("second death: %v", ev)
	}
}

func TestWatcherKmsgRecordMatching(t *testing.T) {
	w := NewWatcher(Target{Source: "pg", ControlGroup: "/app.slice/pg.service"}, Target{Source: "direct"})
	w.states[1].pid = 555
	w.kmsgRecord(KmsgRecord{T: time.Unix(5, 0), Message: "oom-kill:constraint=CONSTRAINT_MEMCG,task_memcg=/app.slice/pg.service,task=postgres,pid=42,uid=0"})
	w.kmsgRecord(KmsgRecord{Message: "Memory cgroup out of memory: Killed process 42 (postgres) total-vm:100kB, anon-rss:50kB"})
	w.kmsgRecord(KmsgRecord{Message: "oom-kill:constraint=CONSTRAINT_NONE,task_memcg=/other,task=x,pid=555,uid=0"})
	w.kmsgRecord(KmsgRecord{Message: "oom-kill:constraint=CONSTRAINT_NONE,task_memcg=/other,task=y,pid=9,uid=0"})
	ev := w.Events()
	if len(ev) != 3 {
		t.Fatalf("events %v", ev)
	}
	if ev[0].Source != "pg" || ev[0].PID != 42 || ev[0].Cgroup != "/app.slice/pg.service" || !strings.Contains(ev[0].Detail, "anon-rss:50kB") {
		t.Errorf("pg event %+v", ev[0])
	}
	if ev[1].Source != "direct" || ev[2].Source != "" {
		t.Errorf("direct by PID / unmatched: %+v %+v", ev[1], ev[2])
	}
}
