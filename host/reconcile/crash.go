package reconcile

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// crashLogLines is how many of the target's last log lines are searched
// for why it died; markLines how many last lines mark a point in the log
// (one line would not: a second death writes the same lines as the first).
const (
	crashLogLines = 200
	markLines     = 20
)

// memoryDeaths are what a dying server writes to its log when memory ran
// out, and what the lab says of each. They are matched ignoring case; the
// lab's own words, never the log's line, go into the event (a log line may
// carry anything the target read).
var memoryDeaths = []struct{ text, means string }{
	{"heap exhausted", `its log says "Heap exhausted": the GHC runtime's heap reached its +RTS -M limit`},
	{"out of memory", `its log says "out of memory"`},
}

// deaths is what the windows know of the target's deaths between them: a
// process that dies after one window (in the next trial's warm-up, say)
// is the next window's, unless the lab restarts the target first.
type deaths struct {
	mu sync.Mutex
	// seen: the watcher's events before it are no window's to come (an
	// earlier window's, or older than the lab's last restart).
	seen int
	// mark is the target's last log lines before its current process
	// started (or before the lab did): that process's output follows them.
	mark string
}

// since sets where the next window's events and the current process's
// log begin.
func (d *deaths) since(seen int, mark string) {
	d.mu.Lock()
	d.seen, d.mark = seen, mark
	d.mu.Unlock()
}

func (d *deaths) get() (seen int, mark string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.seen, d.mark
}

// logMark is the target's last log lines: the lines after them are
// written later (see logSince). "" when the log is empty or cannot be
// read.
func (l *Server) logMark(ctx context.Context) string {
	tail, err := l.cfg.Ctl.LogTail(ctx, l.cfg.TargetUnit, markLines)
	if err != nil {
		return ""
	}
	return strings.TrimRight(tail, "\n")
}

// logSince is what tail holds after the last place where mark's lines
// follow each other: all of it when mark is "" or not found (more lines
// were written since than the tail holds).
func logSince(tail, mark string) string {
	if mark == "" {
		return tail
	}
	lines := strings.Split(strings.TrimRight(tail, "\n"), "\n")
	m := strings.Split(mark, "\n")
	for end := len(lines); end >= len(m); end-- {
		if slices.Equal(lines[end-len(m):end], m) {
			return strings.Join(lines[end:], "\n")
		}
	}
	return tail
}

// memoryDeath says what the log says of memory running out, "" when it
// says nothing of it.
func memoryDeath(log string) string {
	low := strings.ToLower(log)
	for _, d := range memoryDeaths {
		if strings.Contains(low, d.text) {
			return d.means
		}
	}
	return ""
}

// exitCause says why the target's main process ended, its output
// following log line mark: how it ended, as its manager recorded it (exit
// status, signal, OOM kill), and what its log says of memory running out
// ("Heap exhausted" when +RTS -M was reached). "" when neither tells.
func (l *Server) exitCause(ctx context.Context, mark string) string {
	var parts []string
	if p, err := l.cfg.Ctl.Properties(ctx, l.cfg.TargetUnit); err == nil && p.MainPID == 0 {
		if e := p.Exit(); e != "" {
			parts = append(parts, e)
		}
	}
	if tail, err := l.cfg.Ctl.LogTail(ctx, l.cfg.TargetUnit, crashLogLines); err == nil {
		if d := memoryDeath(logSince(tail, mark)); d != "" {
			parts = append(parts, d)
		}
	}
	return strings.Join(parts, "; ")
}

// notRunning is the error of a window that would start with the target
// not running (it died before, e.g. in an earlier trial of the variant).
func (l *Server) notRunning(ctx context.Context) error {
	p, err := l.cfg.Ctl.Properties(ctx, l.cfg.TargetUnit)
	if err != nil || p.MainPID != 0 {
		return nil
	}
	how := p.Exit()
	if how == "" {
		how = "how it ended is unknown: see its log"
	}
	return fmt.Errorf("the target %s is not running at the start of the trial (%s, state %s)", l.cfg.TargetUnit, how, p.ActiveState)
}

// windowEvents are the watcher's events from index seen on, a main
// process gone by now reported at once (Watcher.Flush); the target's
// fatal ones say why it died (exitCause). They are consumed: the next
// window's begin after them, and the log of the target's next process
// after what it wrote by now.
func (l *Server) windowEvents(ctx context.Context, seen int) []lab.Event {
	l.watcher.Flush(ctx)
	evs := l.watcher.Events()
	_, mark := l.deaths.get()
	var out []lab.Event
	cause, died := "", false
	for _, e := range evs[min(seen, len(evs)):] {
		if e.Source == "" {
			continue // another cgroup's OOM kill: not ours
		}
		ev := lab.Event{T: e.T, Kind: eventKinds[e.Kind], Source: e.Source, Detail: e.Detail, PID: e.PID}
		if ev.Source == "postgrest" && ev.Fatal() {
			if !died {
				cause, died = l.exitCause(ctx, mark), true
			}
			if cause != "" {
				ev.Detail += "; " + cause
			}
		}
		out = append(out, ev)
	}
	if died {
		mark = l.logMark(ctx)
	}
	l.deaths.since(len(evs), mark)
	return out
}

// pendingDeath reports whether the watcher has, from index seen on, a
// fatal event of the target: it died since the last window, and the next
// window reports it.
func (l *Server) pendingDeath(seen int) bool {
	evs := l.watcher.Events()
	for _, e := range evs[min(seen, len(evs)):] {
		if e.Source == "postgrest" && eventKinds[e.Kind] != "" && (lab.Event{Kind: eventKinds[e.Kind]}).Fatal() {
			return true
		}
	}
	return false
}
