package telemetry

import (
	"fmt"
	"time"
)

// stateLocked compares a target's main PID and restart count with the last
// ones seen.
func (w *Watcher) stateLocked(i int, now time.Time, pid, restarts int) {
	st, t := &w.states[i], w.targets[i]
	defer func() { st.pid, st.restarts, st.known = pid, restarts, true }()
	if !st.known || st.suspended > 0 {
		return
	}
	if st.crashed {
		// A crash was reported (Flush): its restart, by the manager or
		// anyone, is that crash's aftermath, not another event. A
		// successor, once running, is watched afresh.
		st.crashed = pid == 0
		return
	}
	switch {
	case restarts > st.restarts:
		old := st.pid
		if st.gonePID != 0 {
			old = st.gonePID
		}
		w.addLocked(Event{T: now, Source: t.Source, Kind: KindRestart, PID: old, Cgroup: t.ControlGroup,
			Detail: fmt.Sprintf("restarted by the manager: NRestarts %d -> %d, MainPID %d -> %d", st.restarts, restarts, old, pid)})
		st.gonePID = 0
	case pid == 0 && st.pid != 0:
		st.gonePID, st.goneAt = st.pid, now // crash unless restarted within RestartGrace
	case pid != 0 && st.pid != 0 && pid != st.pid:
		w.addLocked(Event{T: now, Source: t.Source, Kind: KindRestart, PID: st.pid, Cgroup: t.ControlGroup,
			Detail: fmt.Sprintf("main process replaced: MainPID %d -> %d, NRestarts unchanged (%d)", st.pid, pid, restarts)})
	case pid != 0 && st.gonePID != 0:
		w.addLocked(Event{T: st.goneAt, Source: t.Source, Kind: KindCrash, PID: st.gonePID, Cgroup: t.ControlGroup,
			Detail: fmt.Sprintf("main process %d exited; MainPID now %d, NRestarts unchanged (%d)", st.gonePID, pid, restarts)})
		st.gonePID = 0
	}
	w.flushCrashLocked(i, now)
}

// flushCrashLocked reports a vanished main process as a crash once
// RestartGrace has passed (at any time when now is zero).
func (w *Watcher) flushCrashLocked(i int, now time.Time) {
	st, t := &w.states[i], w.targets[i]
	if st.gonePID == 0 || (!now.IsZero() && now.Sub(st.goneAt) < w.RestartGrace) {
		return
	}
	detail := fmt.Sprintf("main process %d exited", st.gonePID)
	if !now.IsZero() {
		detail += fmt.Sprintf(" and was not restarted within %v", w.RestartGrace)
	}
	w.addLocked(Event{T: st.goneAt, Source: t.Source, Kind: KindCrash, PID: st.gonePID, Cgroup: t.ControlGroup, Detail: detail})
	st.gonePID, st.crashed = 0, true
}

// oomCounterLocked reports growth of a cgroup's oom_kill counter when the
// kernel log is not available (it names the PID; the counter does not).
func (w *Watcher) oomCounterLocked(i int, now time.Time, n uint64, ok bool) {
	st, t := &w.states[i], w.targets[i]
	if !ok { // no cgroup (stopped): a new one counts from zero
		st.oom, st.oomKnown = 0, false
		return
	}
	if st.oomKnown && n > st.oom && w.kmsg == nil {
		w.addLocked(Event{T: now, Source: t.Source, Kind: KindOOMKill, Cgroup: t.ControlGroup,
			Detail: fmt.Sprintf("cgroup oom_kill counter %d -> %d (kernel log not readable: %v)", st.oom, n, w.kmsgErr)})
	}
	st.oom, st.oomKnown = n, true
}
