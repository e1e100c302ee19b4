package agent

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"sync"
	"time"
)

// lease is the one driver that holds the agent: its term (the dead-man
// switch), its request-ID cache and its telemetry windows.
type lease struct {
	id      string
	driver  string
	started time.Time
	term    time.Duration
	timer   *time.Timer
	replies *replies
	windows *windows
}

// leases holds at most one lease at a time.
type leases struct {
	mu      sync.Mutex
	cur     *lease
	term    time.Duration
	expired func(s *lease) // called (in the timer's goroutine) when a lease runs out
	now     func() time.Time
	// cleaning counts ended leases whose cleanup (restore) still runs;
	// no new lease starts before it is done.
	cleaning int
}

// open starts a lease; ok is false while another lease is live.
func (ls *leases) open(driver string) (s *lease, holder *lease, ok bool) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if ls.cur != nil || ls.cleaning > 0 {
		return nil, ls.cur, false
	}
	s = &lease{id: newID(), driver: driver, started: ls.now(), term: ls.term, replies: newReplies(256), windows: newWindows()}
	s.timer = time.AfterFunc(ls.term, func() { ls.expire(s) })
	ls.cur = s
	return s, nil, true
}

// get returns the live lease with this id.
func (ls *leases) get(id string) (*lease, bool) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if ls.cur == nil || id == "" || ls.cur.id != id {
		return nil, false
	}
	return ls.cur, true
}

// renew extends the term of the live lease with this id.
func (ls *leases) renew(id string) (*lease, bool) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if ls.cur == nil || ls.cur.id != id {
		return nil, false
	}
	if !ls.cur.timer.Stop() {
		return nil, false // the lease ran out a moment ago; expire is on its way
	}
	ls.cur.timer.Reset(ls.cur.term)
	return ls.cur, true
}

// close ends the lease with this id; it returns it so the caller can
// clean up after it.
func (ls *leases) close(id string) (*lease, bool) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if ls.cur == nil || ls.cur.id != id {
		return nil, false
	}
	s := ls.cur
	s.timer.Stop()
	ls.cur = nil
	ls.cleaning++
	return s, true
}

// cleaned says that the cleanup after close or expiry is over.
func (ls *leases) cleaned() {
	ls.mu.Lock()
	ls.cleaning--
	ls.mu.Unlock()
}

func (ls *leases) expire(s *lease) {
	ls.mu.Lock()
	if ls.cur != s {
		ls.mu.Unlock()
		return
	}
	ls.cur = nil
	ls.cleaning++
	ls.mu.Unlock()
	defer ls.cleaned()
	ls.expired(s)
}

// holds reports whether s is still the live lease (its term did not
// run out and it was not closed).
func (ls *leases) holds(s *lease) bool {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	return ls.cur == s
}

func (ls *leases) live() bool {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	return ls.cur != nil
}

func newID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// detached is a context for an operation that must finish even when the
// request that asked for it is gone (the client retries and gets the answer
// from the reply cache), bounded by timeout.
func detached(ctx context.Context, timeout time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), timeout)
}
