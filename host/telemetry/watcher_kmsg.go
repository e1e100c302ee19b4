package telemetry

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// followKmsg turns kernel OOM records into events.
func (w *Watcher) followKmsg(ctx context.Context, k *KmsgReader) {
	defer w.wg.Done()
	for ctx.Err() == nil {
		r, err := k.Next(time.Time{})
		if err != nil {
			if !errors.Is(err, os.ErrClosed) && ctx.Err() == nil {
				w.mu.Lock()
				w.kmsgErr = fmt.Errorf("kernel log: %w", err)
				w.mu.Unlock()
			}
			return
		}
		w.kmsgRecord(r)
	}
}

func (w *Watcher) kmsgRecord(r KmsgRecord) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if k, ok := ParseOOMKill(r.Message); ok {
		e := Event{T: r.T, Kind: KindOOMKill, PID: k.PID, Cgroup: k.TaskMemcg, Detail: r.Message}
		for i, t := range w.targets {
			if k.InCgroup(t.ControlGroup) || (t.ControlGroup == "" && k.PID == w.states[i].pid) {
				e.Source = t.Source
				break
			}
		}
		w.addLocked(e)
		return
	}
	// "Memory cgroup out of memory: Killed process 4242 (python3) total-vm:..., anon-rss:..."
	if _, after, ok := strings.Cut(r.Message, "Killed process "); ok {
		pidStr, _, _ := strings.Cut(after, " ")
		pid, _ := strconv.Atoi(pidStr)
		for i := len(w.events) - 1; i >= 0; i-- {
			if e := &w.events[i]; e.Kind == KindOOMKill && e.PID == pid && pid != 0 {
				e.Detail += "; " + r.Message
				break
			}
		}
	}
}
