package agent

import (
	"context"
	"net"
	"net/http"
	"sync"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// pipeListener is a net.Listener whose connections are net.Pipe ends: no
// socket, so that an agent and its clients can talk inside a synctest
// bubble (whose fake clock only moves when every goroutine is blocked on
// something of the bubble's, which network I/O is not).
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
func (pipeAddr) String() string  { return "agent.pipe:80" }

// pipeAgent serves an agent for srv on an in-memory listener, for tests
// inside a synctest bubble; the agent's URL is pipeURL, which only clients
// from pipeClient reach.
func pipeAgent(t *testing.T, srv lab.Server, opt Options) (*Handler, *pipeListener) {
	t.Helper()
	h := newHandler(t, srv, opt)
	ln := newPipeListener()
	hs := &http.Server{Handler: h}
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	return h, ln
}

const pipeURL = "http://localhost:80" // dialled through the pipe, never the network

// pipeClient is newClient for the agent listening on ln.
func pipeClient(t *testing.T, ln *pipeListener) *Client {
	t.Helper()
	c := newClient(t, pipeURL, nil)
	c.hc.Transport.(*http.Transport).DialContext = func(context.Context, string, string) (net.Conn, error) { return ln.dial(), nil }
	return c
}
