package loadgen

import (
	"io"
	"net"
	"os"
	"syscall"
	"unsafe"
)

// rawConn reads and writes a socket with raw system calls inside
// syscall.RawConn's Read and Write, which wait on the runtime's network
// poller (and honour the connection's deadlines) when the call would block.
//
// Why: net.Conn's Read and Write go through syscall.Syscall, whose
// entersyscall/exitsyscall pair lets the runtime's sysmon hand the P to
// another thread when a call seems slow. On a 2-core machine shared with
// the server under test, that hand-off (a futex wake of an idle M, then
// the old M parking) happens on many requests and costs more CPU than the
// read itself. A non-blocking read or write of a loopback socket never
// blocks, so a raw call (no entersyscall) is safe and the P stays put.
type rawConn struct {
	net.Conn
	rc syscall.RawConn

	// The current call's buffer and outcome, and the functions RawConn
	// calls, made once per connection so that a request allocates nothing.
	p       []byte
	n       int
	errno   syscall.Errno
	readFn  func(fd uintptr) bool
	writeFn func(fd uintptr) bool
}

// withRawIO wraps conn when it exposes its file descriptor (TCP and Unix
// sockets do); other connections are returned unchanged.
func withRawIO(conn net.Conn) net.Conn {
	sc, ok := conn.(syscall.Conn)
	if !ok {
		return conn
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return conn
	}
	c := &rawConn{Conn: conn, rc: rc}
	c.readFn, c.writeFn = c.readOnce, c.writeAll
	return c
}

// Read reads up to len(p) bytes. A read of 0 bytes without an error is the
// peer's close, reported as io.EOF, as net.Conn's Read does.
func (c *rawConn) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	c.p, c.n, c.errno = p, 0, 0
	err := c.rc.Read(c.readFn)
	n, errno := c.n, c.errno
	c.p = nil
	if err != nil {
		return 0, c.opError("read", err)
	}
	if errno != 0 {
		return 0, c.opError("read", os.NewSyscallError("read", errno))
	}
	if n == 0 {
		return 0, io.EOF
	}
	return n, nil
}

// readOnce is one read(2) for RawConn.Read: false asks it to wait for the
// poller and call again.
func (c *rawConn) readOnce(fd uintptr) bool {
	for {
		r, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&c.p[0])), uintptr(len(c.p)))
		switch e {
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false
		}
		c.n, c.errno = int(r), e
		return true
	}
}

// Write writes all of p, waiting on the poller when the socket's buffer
// is full.
func (c *rawConn) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	c.p, c.n, c.errno = p, 0, 0
	err := c.rc.Write(c.writeFn)
	n, errno := c.n, c.errno
	c.p = nil
	if err != nil {
		return n, c.opError("write", err)
	}
	if errno != 0 {
		return n, c.opError("write", os.NewSyscallError("write", errno))
	}
	return n, nil
}

// writeAll is write(2) until c.p is written, for RawConn.Write: false asks
// it to wait for the poller and call again.
func (c *rawConn) writeAll(fd uintptr) bool {
	for c.n < len(c.p) {
		r, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&c.p[c.n])), uintptr(len(c.p)-c.n))
		switch e {
		case 0:
			c.n += int(r)
		case syscall.EINTR:
		case syscall.EAGAIN:
			return false
		default:
			c.errno = e
			return true
		}
	}
	return true
}

// opError wraps err the way the net package does, so that errors.Is finds
// ECONNRESET, EPIPE and os.ErrDeadlineExceeded as before.
func (c *rawConn) opError(op string, err error) error {
	return &net.OpError{Op: op, Net: c.LocalAddr().Network(), Source: c.LocalAddr(), Addr: c.RemoteAddr(), Err: err}
}
