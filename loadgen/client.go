package loadgen

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"runtime"
	"sync"
	"syscall"
	"time"
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

var errBadResponse = errors.New("malformed HTTP response")

// client is a minimal HTTP/1.1 keep-alive client on one connection. It is
// used by one goroutine; only abort may be called from another.
type client struct {
	dial    func() (net.Conn, error)
	timeout time.Duration
	conn    net.Conn
	used    bool      // conn has served a response (so an EOF before any byte may be a keep-alive race)
	dl      time.Time // current deadline of conn
	buf     []byte
	r, w    int   // unread bytes are buf[r:w]
	in      int64 // bytes read from the network, total

	mu      sync.Mutex // guards conn changes against abort
	aborted bool
}

const (
	bufSize       = 16 << 10
	maxHeaderSize = 1 << 20
	bigBody       = 256 << 10 // a body this large switches the connection to bigBuf
	bigBuf        = 64 << 10
)

func newClient(dial func() (net.Conn, error), timeout time.Duration) *client {
	return &client{dial: dial, timeout: timeout, buf: make([]byte, bufSize)}
}

func (c *client) close() {
	if c.conn != nil {
		c.mu.Lock()
		c.conn.Close()
		c.conn = nil
		c.mu.Unlock()
	}
	c.r, c.w, c.used = 0, 0, false
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
	c.conn, c.dl = conn, time.Time{}
	c.mu.Unlock()
	c.r, c.w, c.used = 0, 0, false
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
		} else if reused && attempt == 0 && isReset(err) {
			c.close()
			continue
		}
		c.close()
		return 0, out, classify(err, errOther)
	}
}

func isReset(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}

func classify(err error, def errKind) errKind {
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		return errTimeout
	case errors.Is(err, errBadResponse):
		return errProtocol
	case def == errConnect:
		return errConnect
	case isReset(err):
		return errReset
	}
	return def
}

// fill reads more bytes into buf, compacting or growing it when full.
func (c *client) fill() error {
	if c.w == len(c.buf) {
		if c.r > 0 {
			c.w = copy(c.buf, c.buf[c.r:c.w])
			c.r = 0
		} else {
			if len(c.buf) >= maxHeaderSize {
				return errBadResponse
			}
			nb := make([]byte, 2*len(c.buf))
			copy(nb, c.buf[:c.w])
			c.buf = nb
		}
	}
	n, err := c.conn.Read(c.buf[c.w:])
	c.w += n
	c.in += int64(n)
	if n > 0 {
		return nil
	}
	if err == nil {
		err = io.ErrNoProgress
	}
	return err
}

// discard consumes n body bytes.
func (c *client) discard(n int64) error {
	for {
		avail := int64(c.w - c.r)
		if avail >= n {
			c.r += int(n)
			return nil
		}
		n -= avail
		c.r, c.w = 0, 0
		if n > bigBody && len(c.buf) < bigBuf {
			c.buf = make([]byte, bigBuf) // large bodies: fewer, larger reads
		}
		if err := c.fill(); err != nil {
			if errors.Is(err, io.EOF) {
				return io.ErrUnexpectedEOF
			}
			return err
		}
	}
}

// line returns the next CRLF-terminated line (without CRLF) and consumes it.
func (c *client) line() ([]byte, error) {
	for {
		if i := bytes.IndexByte(c.buf[c.r:c.w], '\n'); i >= 0 {
			l := c.buf[c.r : c.r+i]
			c.r += i + 1
			return bytes.TrimSuffix(l, []byte{'\r'}), nil
		}
		if c.w-c.r > 64<<10 {
			return nil, errBadResponse
		}
		if err := c.fill(); err != nil {
			return nil, err
		}
	}
}

var crlfcrlf = []byte("\r\n\r\n")

// readResponse reads one response, discarding its body.
func (c *client) readResponse(head bool) (int, error) {
	for {
		status, err := c.readOne(head)
		if err != nil || status >= 200 || status == 101 {
			return status, err
		}
		// 1xx informational: another header follows.
	}
}

func (c *client) readOne(head bool) (int, error) {
	// Find the end of the header.
	var end int
	for {
		if i := bytes.Index(c.buf[c.r:c.w], crlfcrlf); i >= 0 {
			end = c.r + i + 4
			break
		}
		if err := c.fill(); err != nil {
			if errors.Is(err, io.EOF) && c.w > c.r {
				return 0, io.ErrUnexpectedEOF
			}
			return 0, err
		}
	}
	h := c.buf[c.r:end]
	c.r = end
	if len(h) < 16 || !bytes.HasPrefix(h, []byte("HTTP/1.")) || h[8] != ' ' {
		return 0, errBadResponse
	}
	d0, d1, d2 := h[9]-'0', h[10]-'0', h[11]-'0'
	if d0 > 9 || d1 > 9 || d2 > 9 {
		return 0, errBadResponse
	}
	status := int(d0)*100 + int(d1)*10 + int(d2)
	http10 := h[7] == '0'
	keepAlive := !http10
	cl := int64(-1)
	chunked := false
	// Headers: skip the status line.
	p := bytes.IndexByte(h, '\n') + 1
	for p < len(h)-2 {
		e := bytes.IndexByte(h[p:], '\n')
		if e < 0 {
			break
		}
		l := h[p : p+e]
		p += e + 1
		colon := bytes.IndexByte(l, ':')
		if colon <= 0 {
			continue
		}
		name, val := l[:colon], bytes.TrimSpace(l[colon+1:])
		switch {
		case eqFold(name, "content-length"):
			v, ok := parseUint(val)
			if !ok {
				return 0, errBadResponse
			}
			cl = v
		case eqFold(name, "transfer-encoding"):
			chunked = containsFold(val, "chunked")
		case eqFold(name, "connection"):
			if containsFold(val, "close") {
				keepAlive = false
			} else if containsFold(val, "keep-alive") {
				keepAlive = true
			}
		}
	}
	c.used = true
	var err error
	switch {
	case head || status < 200 || status == 204 || status == 304:
	case chunked:
		err = c.readChunked()
	case cl >= 0:
		err = c.discard(cl)
	default:
		// Body until EOF.
		for err == nil {
			c.r = c.w
			err = c.fill()
		}
		if errors.Is(err, io.EOF) {
			err = nil
		}
		keepAlive = false
	}
	if err != nil {
		return 0, err
	}
	if !keepAlive {
		c.close()
	}
	return status, nil
}

func (c *client) readChunked() error {
	for {
		l, err := c.line()
		if err != nil {
			return err
		}
		if i := bytes.IndexByte(l, ';'); i >= 0 {
			l = l[:i]
		}
		size, ok := parseHex(bytes.TrimSpace(l))
		if !ok {
			return errBadResponse
		}
		if size == 0 {
			for { // trailers up to the empty line
				t, err := c.line()
				if err != nil {
					return err
				}
				if len(t) == 0 {
					return nil
				}
			}
		}
		if err := c.discard(size + 2); err != nil {
			return err
		}
	}
}

func eqFold(b []byte, lower string) bool {
	if len(b) != len(lower) {
		return false
	}
	for i := range b {
		if b[i]|0x20 != lower[i] && !(lower[i] == '-' && b[i] == '-') {
			return false
		}
	}
	return true
}

func containsFold(b []byte, lower string) bool {
	for i := 0; i+len(lower) <= len(b); i++ {
		if eqFold(b[i:i+len(lower)], lower) {
			return true
		}
	}
	return false
}

func parseUint(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	var v int64
	for _, ch := range b {
		if ch < '0' || ch > '9' {
			return 0, false
		}
		v = v*10 + int64(ch-'0')
	}
	return v, true
}

func parseHex(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 15 {
		return 0, false
	}
	var v int64
	for _, ch := range b {
		switch {
		case ch >= '0' && ch <= '9':
			v = v<<4 | int64(ch-'0')
		case ch|0x20 >= 'a' && ch|0x20 <= 'f':
			v = v<<4 | int64(ch|0x20-'a'+10)
		default:
			return 0, false
		}
	}
	return v, true
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
