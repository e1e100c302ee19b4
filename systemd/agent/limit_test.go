package agent

import (
	"net"
	"sync"
	"testing"
	"testing/synctest"
)

// TestLimitListener: with n connections open, Accept waits until one
// closes (the cap of Options.MaxConnections). It runs in a synctest bubble
// on an in-memory listener: synctest.Wait returns once every goroutine is
// blocked, so "the third connection is not accepted" is checked exactly
// instead of by watching for 200 ms.
func TestLimitListener(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		inner := newPipeListener()
		ln := limitListener(inner, 2)
		defer ln.Close()
		accepted := make(chan net.Conn, 3)
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				accepted <- c
			}
		}()
		for i := 0; i < 3; i++ {
			c := inner.dial()
			defer c.Close()
		}
		synctest.Wait()
		if len(accepted) != 2 {
			t.Fatalf("%d connections accepted of 3 dialled, want the cap of 2", len(accepted))
		}
		first, second := <-accepted, <-accepted
		first.Close()
		synctest.Wait()
		if len(accepted) != 1 {
			t.Fatal("the third connection was not accepted after one closed")
		}
		(<-accepted).Close()
		second.Close()
	})
}

// pipeListener is a net.Listener whose connections are net.Pipe ends: no
// socket, so it can serve inside a synctest bubble.
type pipeListener struct {
	conns     chan net.Conn
	done      chan struct{}
	closeOnce sync.Once
}

func newPipeListener() *pipeListener {
	return &pipeListener{conns: make(chan net.Conn), done: make(chan struct{})}
}

// dial connects to the listener; the server end waits in Accept's queue.
func (l *pipeListener) dial() net.Conn {
	srv, cli := net.Pipe()
	go func() {
		select {
		case l.conns <- srv:
		case <-l.done:
			srv.Close()
		}
	}()
	return cli
}

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *pipeListener) Close() error {
	l.closeOnce.Do(func() { close(l.done) })
	return nil
}

func (l *pipeListener) Addr() net.Addr { return pipeAddr{} }

type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return "pipe" }
