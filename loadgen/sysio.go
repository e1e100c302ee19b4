package loadgen

import (
	"fmt"
	"net"
	"os"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The event loop's system calls. Reads, writes and epoll_wait are raw
// (syscall.RawSyscall: no entersyscall/exitsyscall), so the runtime never
// hands the loop's P to another thread around them: on a 2-core machine
// shared with the server under test that hand-off (a futex wake of an idle
// thread, then the old one parking) would happen on most requests and cost
// more CPU than the call. A read or write of a non-blocking socket never
// blocks; epoll_wait blocks for at most maxWait, and the loop yields the P
// (runtime.Gosched) between waits so that the program's other goroutines run.

// socketFD takes conn's socket away from the runtime: it returns a
// duplicate of its file descriptor (non-blocking, close-on-exec) and closes
// conn, so that the runtime's poller no longer watches the socket.
func socketFD(conn net.Conn) (int, error) {
	defer conn.Close()
	sc, ok := conn.(syscall.Conn)
	if !ok {
		return -1, fmt.Errorf("%T has no file descriptor", conn)
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return -1, err
	}
	fd, derr := -1, error(nil)
	if err := rc.Control(func(f uintptr) { fd, derr = unix.FcntlInt(f, unix.F_DUPFD_CLOEXEC, 0) }); err != nil {
		return -1, err
	}
	if derr != nil {
		return -1, fmt.Errorf("dup: %w", derr)
	}
	// O_NONBLOCK belongs to the open file the two descriptors share; set it
	// again in case conn's was cleared.
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		return -1, err
	}
	return fd, nil
}

// rawRead reads into p: n > 0, or 0 at the peer's close, or an errno
// (EAGAIN when nothing is there yet).
func rawRead(fd int, p []byte) (int, syscall.Errno) { return rawIO(syscall.SYS_READ, fd, p) }

// rawWrite writes as much of p as the socket takes (EAGAIN when its buffer
// is full).
func rawWrite(fd int, p []byte) (int, syscall.Errno) { return rawIO(syscall.SYS_WRITE, fd, p) }

// rawIO is read(2) or write(2) (trap) on fd, retried on EINTR.
func rawIO(trap uintptr, fd int, p []byte) (int, syscall.Errno) {
	for {
		r, _, e := syscall.RawSyscall(trap, uintptr(fd), uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
		if e == syscall.EINTR {
			continue
		}
		if e != 0 {
			return 0, e
		}
		return int(r), 0
	}
}

// poller is one event loop's epoll instance.
type poller struct {
	fd     int
	events []unix.EpollEvent
	ts     unix.Timespec
	pwait2 bool // epoll_pwait2 (ns timeouts, Linux 5.11) works; else epoll_pwait (ms)
}

func newPoller(size int) (*poller, error) {
	fd, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("epoll_create1: %w", err)
	}
	return &poller{fd: fd, events: make([]unix.EpollEvent, max(size, 1)), pwait2: true}, nil
}

func (p *poller) close() { unix.Close(p.fd) }

// add watches fd for input (and for output with out), tagging its events
// with id.
func (p *poller) add(fd, id int, out bool) error {
	return p.ctl(unix.EPOLL_CTL_ADD, fd, id, out)
}

// modify changes what fd is watched for.
func (p *poller) modify(fd, id int, out bool) error {
	return p.ctl(unix.EPOLL_CTL_MOD, fd, id, out)
}

func (p *poller) ctl(op, fd, id int, out bool) error {
	ev := unix.EpollEvent{Events: unix.EPOLLIN | unix.EPOLLRDHUP, Fd: int32(id)}
	if out {
		ev.Events |= unix.EPOLLOUT
	}
	if err := unix.EpollCtl(p.fd, op, fd, &ev); err != nil {
		return fmt.Errorf("epoll_ctl: %w", err)
	}
	return nil
}

// wait waits up to timeout ns (0: do not block) for events and returns
// them; an interrupted wait returns none.
func (p *poller) wait(timeout int64) ([]unix.EpollEvent, error) {
	timeout = max(timeout, 0)
	if p.pwait2 {
		p.ts = unix.NsecToTimespec(timeout)
		r, _, e := syscall.RawSyscall6(unix.SYS_EPOLL_PWAIT2, uintptr(p.fd), uintptr(unsafe.Pointer(&p.events[0])),
			uintptr(len(p.events)), uintptr(unsafe.Pointer(&p.ts)), 0, 0)
		if e != syscall.ENOSYS {
			return p.result(r, e)
		}
		p.pwait2 = false
	}
	ms := (timeout + 999_999) / 1_000_000 // round up: never wake before the time
	r, _, e := syscall.RawSyscall6(unix.SYS_EPOLL_PWAIT, uintptr(p.fd), uintptr(unsafe.Pointer(&p.events[0])),
		uintptr(len(p.events)), uintptr(ms), 0, 0)
	return p.result(r, e)
}

func (p *poller) result(r uintptr, e syscall.Errno) ([]unix.EpollEvent, error) {
	switch e {
	case 0:
		return p.events[:r], nil
	case syscall.EINTR:
		return nil, nil
	}
	return nil, os.NewSyscallError("epoll_wait", e)
}

// stampedReader reads a socket with recvmsg and the kernel's receive time
// of the data (SO_TIMESTAMPNS): the time the last bytes read arrived, so
// that an answer read some time after it came in still ends when it did.
// Its buffers are its own, so a read allocates nothing.
type stampedReader struct {
	hdr unix.Msghdr
	iov unix.Iovec
	ctl [64]byte
}

// enableStamps asks the kernel to stamp what fd receives.
func enableStamps(fd int) error {
	return unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_TIMESTAMPNS, 1)
}

// read reads into p like rawRead; at is the receive time of the last data
// read (CLOCK_REALTIME, ns), 0 when the kernel gave none.
func (s *stampedReader) read(fd int, p []byte) (n int, at int64, e syscall.Errno) {
	s.iov.Base = &p[0]
	s.iov.SetLen(len(p))
	s.hdr.Iov = &s.iov
	s.hdr.Iovlen = 1
	s.hdr.Control = &s.ctl[0]
	for {
		s.hdr.SetControllen(len(s.ctl))
		r, _, e := syscall.RawSyscall(syscall.SYS_RECVMSG, uintptr(fd), uintptr(unsafe.Pointer(&s.hdr)), 0)
		if e == syscall.EINTR {
			continue
		}
		if e != 0 {
			return 0, 0, e
		}
		return int(r), s.stamp(), 0
	}
}

// stamp finds SCM_TIMESTAMPNS among the control messages just received.
func (s *stampedReader) stamp() int64 {
	ctl := s.ctl[:min(int(s.hdr.Controllen), len(s.ctl))]
	for len(ctl) >= unix.SizeofCmsghdr {
		h := (*unix.Cmsghdr)(unsafe.Pointer(&ctl[0]))
		if h.Len < unix.SizeofCmsghdr || int(h.Len) > len(ctl) {
			return 0
		}
		if h.Level == unix.SOL_SOCKET && h.Type == unix.SCM_TIMESTAMPNS && int(h.Len) >= unix.CmsgLen(int(unsafe.Sizeof(unix.Timespec{}))) {
			ts := (*unix.Timespec)(unsafe.Pointer(&ctl[unix.CmsgLen(0)]))
			return ts.Nano()
		}
		ctl = ctl[min(unix.CmsgSpace(int(h.Len)-unix.CmsgLen(0)), len(ctl)):]
	}
	return 0
}

// sleep sleeps for d ns (raw, like the poller's wait: the P stays with the
// loop), or less when a signal interrupts it.
func sleep(d int64) {
	ts := unix.NsecToTimespec(max(d, 0))
	syscall.RawSyscall6(unix.SYS_CLOCK_NANOSLEEP, unix.CLOCK_MONOTONIC, 0, uintptr(unsafe.Pointer(&ts)), 0, 0, 0)
}
