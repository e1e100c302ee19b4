package agent

import (
	"context"
	"fmt"
	"sync"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// window is a telemetry window of a lease: running, then stopped with
// its telemetry kept until the driver deletes it (or the lease ends), so
// a stop whose answer was lost can be fetched again.
type window struct {
	id      string
	started int64
	w       lab.Window
	cancel  context.CancelFunc // ends the recording's context
	mu      sync.Mutex         // held while stopping
	stopped bool
	tel     lab.Telemetry
	err     string
}

type windows struct {
	mu        sync.Mutex
	seq       int
	byID      map[string]*window
	recording int  // windows reserved and not stopped yet
	closed    bool // drained: the lease ended, no window is added any more
}

// reserve counts a window about to record; false when max already are.
func (ws *windows) reserve(max int) bool {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if ws.recording >= max {
		return false
	}
	ws.recording++
	return true
}

// release says a reserved window stopped (or never started).
func (ws *windows) release() {
	ws.mu.Lock()
	ws.recording--
	ws.mu.Unlock()
}

func newWindows() *windows { return &windows{byID: map[string]*window{}} }

// add keeps a window that started recording; ok is false once the
// lease's windows were drained (the lease ended while the window was
// being set up): the caller stops it, as no one else will.
func (ws *windows) add(w lab.Window, started int64, cancel context.CancelFunc) (win *window, ok bool) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if ws.closed {
		return nil, false
	}
	ws.seq++
	win = &window{id: fmt.Sprintf("w%d", ws.seq), started: started, w: w, cancel: cancel}
	ws.byID[win.id] = win
	return win, true
}

func (ws *windows) get(id string) (*window, bool) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	w, ok := ws.byID[id]
	return w, ok
}

func (ws *windows) remove(id string) bool {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	_, ok := ws.byID[id]
	delete(ws.byID, id)
	return ok
}

// drain returns every window (to stop those still recording when the
// lease ends), forgets all and refuses any window added later, so that a
// window set up while the lease ends cannot outlive it.
func (ws *windows) drain() []*window {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	ws.closed = true
	var out []*window
	for _, w := range ws.byID {
		out = append(out, w)
	}
	ws.byID = map[string]*window{}
	return out
}
