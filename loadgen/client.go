package loadgen

import (
	"bufio"
	"errors"
	"io"
	"net"
	"os"
	"runtime"
	"sync"
	"syscall"
	"time"

	"github.com/valyala/fasthttp"
)

// errKind classifies a failed request.
type errKind uint8

const (
	errNone errKind = iota
	errTimeout
	errConnect
	errReset
	errStatus
	errProtocol
	errOther
	numErrKinds
)

var errKindNames = [numErrKinds]string{"", "timeout", "connect", "reset", "status", "protocol", "other"}

func (k errKind) String() string { return errKindNames[k] }

// client sends requests on one HTTP/1.1 keep-alive connection, one at a
// time. The request bytes were written by fasthttp when the template was
// compiled (see compile); the responses are parsed by fasthttp into one
// reused fasthttp.Response (status line, headers, Content-Length, chunked
// bodies and trailers, 1xx answers, Connection: close, HTTP/1.0). The
// client itself only owns the connection: dialing, deadlines, retrying a
// keep-alive connection the server closed while idle, and counting bytes.
// It is used by one goroutine; only abort may be called from another.
type client struct {
	dial    func() (net.Conn, error)
	timeout time.Duration
	conn    net.Conn
	br      *bufio.Reader // reads through the client (Read), so bytes in are counted
	resp    fasthttp.Response
	used    bool      // conn has served a response (so an EOF before any byte may be a keep-alive race)
	dl      time.Time // current deadline of conn
	in      int64     // bytes read from the network, total
	rerr    error     // the connection's read error during the current response, if any

	mu      sync.Mutex // guards conn changes against abort
	aborted bool
}

const (
	bufSize       = 16 << 10 // read buffer per connection; also the first limit on a response's header
	maxHeaderSize = 1 << 20  // the read buffer grows up to this for a larger response header
	keepBody      = 256 << 10
)

func newClient(dial func() (net.Conn, error), timeout time.Duration) *client {
	c := &client{dial: dial, timeout: timeout}
	c.br = bufio.NewReaderSize(c, bufSize)
	// Reuse the body buffer from one response to the next (fasthttp would
	// otherwise return it to its pool and take it back on every response).
	c.resp.KeepBodyBuffer = true
	return c
}

// Read reads from the connection for the bufio.Reader, counting the bytes
// and remembering the error: fasthttp wraps some connection errors in its
// own (ErrBrokenChunk, ErrTimeout), and the kind of failure is the
// connection's.
func (c *client) Read(p []byte) (int, error) {
	n, err := c.conn.Read(p)
	c.in += int64(n)
	if err != nil {
		c.rerr = err
	}
	return n, err
}

func (c *client) close() {
	if c.conn != nil {
		c.mu.Lock()
		c.conn.Close()
		c.conn = nil
		c.mu.Unlock()
	}
	c.used = false
}

// connect opens the connection if there is none.
func (c *client) connect(now time.Time) error {
	if c.conn != nil {
		return nil
	}
	conn, err := c.dial()
	if err != nil {
		return err
	}
	c.mu.Lock()
	if c.aborted {
		c.mu.Unlock()
		conn.Close()
		return os.ErrDeadlineExceeded
	}
	c.conn, c.dl = withRawIO(conn), time.Time{}
	c.mu.Unlock()
	c.used = false
	c.br.Reset(c) // drops what an earlier connection left, and a grown reader's chain
	return c.refreshDeadline(now)
}

// refreshDeadline keeps the connection's deadline between 0.9 and 1.0
// timeouts ahead of now; refreshing only when needed keeps SetDeadline (a
// runtime timer update) off most requests.
func (c *client) refreshDeadline(now time.Time) error {
	if c.dl.Sub(now) >= c.timeout-c.timeout/10 {
		return nil
	}
	c.dl = now.Add(c.timeout)
	return c.conn.SetDeadline(c.dl)
}

// do sends req and reads the response. It returns the status, the bytes
// written, and the failure kind (errNone on success; the caller checks the
// status). On any failure the connection is closed.
func (c *client) do(req []byte, head bool, now time.Time) (status int, out int64, kind errKind) {
	for attempt := 0; ; attempt++ {
		if err := c.connect(now); err != nil {
			return 0, 0, classify(err, errConnect)
		}
		if err := c.refreshDeadline(now); err != nil {
			c.close()
			return 0, 0, errOther
		}
		reused := c.used
		n, err := c.conn.Write(req)
		out += int64(n)
		if err == nil {
			// Let the goroutines whose answers are in run first: by the
			// time this one reads, its own answer is more often there, which
			// saves a read returning EAGAIN.
			runtime.Gosched()
			before := c.in
			status, err = c.readResponse(head)
			if err == nil {
				return status, out, errNone
			}
			// A keep-alive connection the server closed while idle: retry once on a fresh one.
			if reused && attempt == 0 && c.in == before && isReset(err) {
				c.close()
				continue
			}
			c.close()
			return 0, out, classify(err, errProtocol)
		} else if reused && attempt == 0 && isReset(err) {
			c.close()
			continue
		}
		c.close()
		return 0, out, classify(err, errOther)
	}
}

// readResponse reads one response with fasthttp (its body into the reused
// buffer, nothing for HEAD) and returns its status. When the read failed
// because of the connection (timeout, reset, EOF), that error is returned
// rather than fasthttp's wrapping of it.
func (c *client) readResponse(head bool) (int, error) {
	r := &c.resp
	r.SkipBody = head
	c.rerr = nil
	if err := r.Read(c.br); err != nil {
		if err = c.readError(err); err != nil {
			return 0, err
		}
	}
	c.used = true
	r.ReleaseBody(keepBody) // do not keep a large body's buffer per connection
	status := r.StatusCode()
	if r.ConnectionClose() || status == fasthttp.StatusSwitchingProtocols {
		c.close()
	}
	return status, nil
}

// readError handles the error of a response read: a header larger
// than the read buffer is read again with a larger buffer (up to
// maxHeaderSize); a failed read of the connection is reported as that
// failure rather than fasthttp's wrapping of it.
func (c *client) readError(err error) error {
	var small *fasthttp.ErrSmallBuffer
	for errors.As(err, &small) && c.rerr == nil && c.br.Size() < maxHeaderSize {
		// fasthttp only peeked at the header, so a larger reader in front
		// of the current one sees the same bytes.
		c.br = bufio.NewReaderSize(c.br, 4*c.br.Size())
		err = c.resp.Read(c.br)
	}
	if err != nil && c.rerr != nil {
		return c.rerr
	}
	return err
}

func isReset(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}

// classify maps err to a kind: timeouts and resets are recognised first,
// then def (connect for dialing, protocol for what fasthttp rejected).
func classify(err error, def errKind) errKind {
	var ne net.Error
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded), errors.Is(err, fasthttp.ErrTimeout),
		errors.As(err, &ne) && ne.Timeout():
		return errTimeout
	case def == errConnect:
		return errConnect
	case isReset(err):
		return errReset
	}
	return def
}

// abort makes the connection's pending read or write fail now. It may be
// called from another goroutine.
func (c *client) abort() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.aborted = true
	if c.conn != nil {
		c.conn.SetDeadline(time.Unix(1, 0))
	}
}
