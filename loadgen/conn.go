package loadgen

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"syscall"
	"time"

	"github.com/valyala/fasthttp"
	"golang.org/x/sys/unix"
)

// conn is one keep-alive connection of an event loop and the request on
// it, one at a time. Its socket is a raw non-blocking descriptor watched by
// the loop's poller. The request bytes were written by fasthttp when the
// template was compiled (see compile). The common answer (HTTP/1.1, a
// Content-Length body, no Connection header) is read in place by
// quickParse; any other is parsed by fasthttp into one reused
// fasthttp.Response (chunked bodies and trailers, 1xx answers,
// Connection: close, HTTP/1.0, ...). Both parse the bytes read so far: an
// answer that is not all there yet is parsed again when more arrives. The
// connection itself only dials, writes, reads, retries once on a keep-alive
// connection the server closed while idle, counts bytes and classifies
// failures.
type conn struct {
	*worker     // what to send next, and where its answer is recorded
	slot    int // index in the loop's conns, the poller's tag
	fd      int // -1: not connected
	used    bool
	wantOut bool // the poller watches for output: a write is pending

	// The request in flight.
	busy            bool
	t               *tmpl
	req             []byte
	sent            int
	retried         bool // already retried on a fresh connection
	intended, start time.Time
	// firstAt is when the answer's first bytes arrived (zero until then):
	// the time to the first byte, beside the latency's time to the last.
	firstAt time.Time
	// ready is when the generator could first have sent it: intended, or
	// for a request that waited for a connection (Open.MaxLate) when the
	// first came free. The send delay counts from it: the generator's own
	// lateness, not the server's.
	ready     time.Time
	freed     time.Time // open model: when the last answer on it came in
	deadline  int64     // ns since the run's start
	measured  bool
	inAt, out int64

	// The answer being read.
	buf     []byte // its bytes so far
	need    int    // no parse before len(buf) reaches this (a body's known length)
	connErr error  // the connection's read error (io.EOF at the peer's close)
	src     parseSource
	br      *bufio.Reader
	resp    fasthttp.Response
	// quick is the answer when quickParse read it (quickOK), else fasthttp
	// did, into resp.
	quick   quickAnswer
	quickOK bool
	in      int64 // bytes read, total

	// The open model reads with the kernel's receive time (stamps): rxAt
	// is when the answer's last bytes read so far arrived (CLOCK_REALTIME
	// ns), 0 when the kernel gave none.
	stamps bool
	rx     stampedReader
	rxAt   int64
}

const (
	bufSize       = 16 << 10 // parse buffer per connection; also the first limit on a response's header
	maxHeaderSize = 1 << 20  // the parse buffer grows up to this for a larger response header
	keepBody      = 256 << 10
	readChunk     = 16 << 10 // room kept free in buf for one read
)

func newConn(w *worker, slot int) *conn {
	c := &conn{worker: w, slot: slot, fd: -1}
	c.br = bufio.NewReaderSize(&c.src, bufSize)
	// Reuse the body buffer from one response to the next (fasthttp would
	// otherwise return it to its pool and take it back on every response).
	c.resp.KeepBodyBuffer = true
	c.resp.Header.DisableNormalizing()
	return c
}

// closeFD closes the socket, if one is open.
func (c *conn) closeFD() {
	if c.fd >= 0 {
		unix.Close(c.fd)
		c.fd = -1
	}
}

// errMore is what parseSource returns where the bytes read so far end: the
// answer is not complete yet.
var errMore = errors.New("loadgen: answer incomplete")

// parseSource gives fasthttp the bytes of an answer read so far; after them
// it returns the connection's error, or errMore and notes the starvation.
type parseSource struct {
	b       []byte
	off     int
	err     error
	starved bool
}

func (s *parseSource) Read(p []byte) (int, error) {
	if s.off == len(s.b) {
		if s.err != nil {
			return 0, s.err
		}
		s.starved = true
		return 0, errMore
	}
	n := copy(p, s.b[s.off:])
	s.off += n
	return n, nil
}

// write writes what is left of the request; it reports whether all of it
// went out (else the poller is to say when the socket takes more).
func (c *conn) write() (bool, error) {
	for c.sent < len(c.req) {
		n, e := rawWrite(c.fd, c.req[c.sent:])
		switch e {
		case 0:
			c.sent += n
			c.out += int64(n)
		case syscall.EAGAIN:
			return false, nil
		default:
			return false, os.NewSyscallError("write", e)
		}
	}
	return true, nil
}

// read reads what the socket has into buf; a failure or the peer's close
// is kept in connErr.
func (c *conn) read() {
	for c.connErr == nil {
		if cap(c.buf)-len(c.buf) < readChunk {
			nb := make([]byte, len(c.buf), 2*cap(c.buf)+readChunk)
			copy(nb, c.buf)
			c.buf = nb
		}
		room := c.buf[len(c.buf):cap(c.buf)]
		var n int
		var e syscall.Errno
		if c.stamps {
			var at int64
			if n, at, e = c.rx.read(c.fd, room); n > 0 {
				c.rxAt = at
			}
		} else {
			n, e = rawRead(c.fd, room)
		}
		switch {
		case e == syscall.EAGAIN:
			return
		case e != 0:
			c.connErr = os.NewSyscallError("read", e)
			return
		case n == 0:
			c.connErr = io.EOF
			return
		}
		c.buf = c.buf[:len(c.buf)+n]
		c.in += int64(n)
		if n < len(room) {
			return // drained: the poller says when more comes
		}
	}
}

var (
	headerEnd = []byte("\r\n\r\n")
	interim   = []byte("HTTP/1.1 1")
)

// parse parses the answer from the bytes read so far. done is false while
// it is incomplete; then err is nil. When done, err is the failure: the
// connection's own (timeout, reset, EOF) in preference to fasthttp's
// wrapping of it. The common answer is read by quickParse, any other by
// fasthttp.
func (c *conn) parse() (done bool, status int, err error) {
	if len(c.buf) < c.need && c.connErr == nil {
		return false, 0, nil
	}
	c.quickOK = false
	if !c.t.isHead {
		if q, ok := quickParse(c.buf); ok {
			if q.end > len(c.buf) && c.connErr == nil {
				c.need = q.end // the body is still to come
				return false, 0, nil
			}
			if q.end == len(c.buf) {
				c.quick, c.quickOK, c.used = q, true, true
				if cap(c.buf) > keepBody {
					c.buf = nil // q.timing keeps what it needs of it
				}
				return true, q.status, nil
			}
			// Cut short by the connection's end: fasthttp says how.
		}
	}
	r := &c.resp
	for {
		c.src = parseSource{b: c.buf, err: c.connErr}
		c.br.Reset(&c.src)
		r.SkipBody = c.t.isHead
		err = r.Read(c.br)
		if err == nil {
			break
		}
		if c.src.starved {
			c.noteNeed()
			return false, 0, nil
		}
		var small *fasthttp.ErrSmallBuffer
		if errors.As(err, &small) && c.connErr == nil && c.br.Size() < maxHeaderSize {
			c.br = bufio.NewReaderSize(&c.src, 4*c.br.Size())
			continue
		}
		if c.connErr != nil {
			return true, 0, c.connErr
		}
		return true, 0, err
	}
	c.used = true
	r.ReleaseBody(keepBody) // do not keep a large body's buffer per connection
	if cap(c.buf) > keepBody {
		c.buf = nil
	}
	return true, r.StatusCode(), nil
}

// noteNeed remembers, when a final answer's header is in and announces a
// body's length, how many bytes the answer takes, so that a large body is
// not parsed again on every read.
func (c *conn) noteNeed() {
	if c.t.isHead || bytes.HasPrefix(c.buf, interim) {
		return
	}
	i := bytes.Index(c.buf, headerEnd)
	if i < 0 {
		return
	}
	if cl := c.resp.Header.ContentLength(); cl >= 0 {
		c.need = i + len(headerEnd) + cl
	}
}

// closeAfter reports whether the answer just parsed ends the connection.
func (c *conn) closeAfter() bool {
	if c.quickOK {
		return false // quickParse reads no Connection header and no 101
	}
	return c.resp.ConnectionClose() || c.resp.StatusCode() == fasthttp.StatusSwitchingProtocols
}

// serverTiming is the answer's Server-Timing header.
func (c *conn) serverTiming() []byte {
	if c.quickOK {
		return c.quick.timing
	}
	return c.peekServerTiming(&c.resp.Header)
}

// reset clears the answer buffer for the next request.
func (c *conn) resetAnswer() {
	c.buf = c.buf[:0]
	c.need = 0
	c.connErr = nil
	c.rxAt = 0
}
