package agent

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"sync"
	"time"
)

// session is the one driver that holds the agent, with its lease (the
// dead-man switch), its request-ID cache and its telemetry windows.
type session struct {
	id      string
	driver  string
	started time.Time
	lease   time.Duration
	timer   *time.Timer
	replies *replies
	windows *windows
}

// sessions holds at most one session at a time.
type sessions struct {
	mu      sync.Mutex
	cur     *session
	lease   time.Duration
	expired func(s *session) // called (in the timer's goroutine) when a lease runs out
	now     func() time.Time
	// cleaning counts ended sessions whose cleanup (restore) still runs;
	// no new session starts before it is done.
	cleaning int
}

// open starts a session; ok is false while another lease is live.
func (ss *sessions) open(driver string) (s *session, holder *session, ok bool) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.cur != nil || ss.cleaning > 0 {
		return nil, ss.cur, false
	}
	s = &session{id: newID(), driver: driver, started: ss.now(), lease: ss.lease, replies: newReplies(256), windows: newWindows()}
	s.timer = time.AfterFunc(ss.lease, func() { ss.expire(s) })
	ss.cur = s
	return s, nil, true
}

// get returns the live session with this id.
func (ss *sessions) get(id string) (*session, bool) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.cur == nil || id == "" || ss.cur.id != id {
		return nil, false
	}
	return ss.cur, true
}

// renew extends the lease of the live session with this id.
func (ss *sessions) renew(id string) (*session, bool) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.cur == nil || ss.cur.id != id {
		return nil, false
	}
	if !ss.cur.timer.Stop() {
		return nil, false // the lease ran out a moment ago; expire is on its way
	}
	ss.cur.timer.Reset(ss.cur.lease)
	return ss.cur, true
}

// close ends the session with this id; it returns it so the caller can
// clean up after it.
func (ss *sessions) close(id string) (*session, bool) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.cur == nil || ss.cur.id != id {
		return nil, false
	}
	s := ss.cur
	s.timer.Stop()
	ss.cur = nil
	ss.cleaning++
	return s, true
}

// cleaned says that the cleanup after close or expiry is over.
func (ss *sessions) cleaned() {
	ss.mu.Lock()
	ss.cleaning--
	ss.mu.Unlock()
}

func (ss *sessions) expire(s *session) {
	ss.mu.Lock()
	if ss.cur != s {
		ss.mu.Unlock()
		return
	}
	ss.cur = nil
	ss.cleaning++
	ss.mu.Unlock()
	defer ss.cleaned()
	ss.expired(s)
}

// holds reports whether s is still the live session (its lease did not
// run out and it was not closed).
func (ss *sessions) holds(s *session) bool {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.cur == s
}

func (ss *sessions) live() bool {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.cur != nil
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
