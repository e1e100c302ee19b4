package loadgen

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// rawPair returns a raw-I/O client end and the server end of a real
// loopback connection of the given network ("tcp" or "unix").
func rawPair(t *testing.T, network string) (client, server net.Conn) {
	t.Helper()
	addr := "127.0.0.1:0"
	if network == "unix" {
		addr = filepath.Join(t.TempDir(), "s")
	}
	ln, err := net.Listen(network, addr)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, _ := ln.Accept()
		accepted <- c
	}()
	c, err := net.Dial(network, ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	s := <-accepted
	if s == nil {
		t.Fatal("accept failed")
	}
	rc := withRawIO(c)
	if _, ok := rc.(*rawConn); !ok {
		t.Fatalf("%s connection not wrapped", network)
	}
	t.Cleanup(func() { rc.Close(); s.Close() })
	return rc, s
}

func TestRawIORoundTrip(t *testing.T) {
	for _, network := range []string{"tcp", "unix"} {
		t.Run(network, func(t *testing.T) {
			c, s := rawPair(t, network)
			// Larger than any socket buffer, so Write must wait on the poller
			// and resume after partial writes.
			big := bytes.Repeat([]byte("0123456789abcdef"), 1<<18) // 4 MiB
			got := make(chan []byte, 1)
			go func() {
				b, _ := io.ReadAll(io.LimitReader(s, int64(len(big))))
				got <- b
			}()
			n, err := c.Write(big)
			if err != nil || n != len(big) {
				t.Fatalf("Write = %d, %v; want %d, nil", n, err, len(big))
			}
			if b := <-got; !bytes.Equal(b, big) {
				t.Fatalf("server read %d bytes, not what was written", len(b))
			}
			// A read waits for data that is not there yet (EAGAIN, then the poller).
			go s.Write([]byte("pong"))
			buf := make([]byte, 16)
			n, err = io.ReadAtLeast(c, buf, 4)
			if err != nil || string(buf[:n]) != "pong" {
				t.Fatalf("Read = %q, %v", buf[:n], err)
			}
			// The peer's close is io.EOF.
			s.Close()
			if n, err := c.Read(buf); n != 0 || !errors.Is(err, io.EOF) {
				t.Fatalf("Read after close = %d, %v; want 0, EOF", n, err)
			}
		})
	}
}

func TestRawIODeadlineAndReset(t *testing.T) {
	c, s := rawPair(t, "tcp")
	if err := c.SetDeadline(time.Now().Add(20 * time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	_, err := c.Read(make([]byte, 8))
	var ne net.Error
	if !errors.Is(err, os.ErrDeadlineExceeded) || !errors.As(err, &ne) || !ne.Timeout() {
		t.Fatalf("Read past the deadline = %v; want a timeout", err)
	}
	if classify(err, errProtocol) != errTimeout {
		t.Fatalf("classified %v as %v", err, classify(err, errProtocol))
	}
	c.SetDeadline(time.Time{})
	// A reset by the peer (close with unread data and SO_LINGER 0) is ECONNRESET.
	s.(*net.TCPConn).SetLinger(0)
	s.Close()
	var rerr error
	for range 100 { // the RST arrives asynchronously; bounded
		if _, rerr = c.Write([]byte("x")); rerr != nil {
			break
		}
		if _, rerr = c.Read(make([]byte, 8)); rerr != nil {
			break
		}
	}
	if !errors.Is(rerr, syscall.ECONNRESET) && !errors.Is(rerr, syscall.EPIPE) && !errors.Is(rerr, io.EOF) {
		t.Fatalf("after a reset: %v; want ECONNRESET, EPIPE or EOF", rerr)
	}
	if !isReset(rerr) {
		t.Fatalf("isReset(%v) = false", rerr)
	}
}
