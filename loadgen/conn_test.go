package loadgen

import (
	"bufio"
	"io"
	"net"
	"strings"
	"testing"
	"time"
)

// scripted answers each request read on a real loopback connection with the
// next canned response, written in chunks of `piece` bytes to exercise
// split reads, then closes its side (a FIN, never a reset: it reads what the
// client sends until the client closes).
func scripted(t *testing.T, piece int, responses ...string) string {
	return serveScript(t, piece, false, responses)
}

// stalling answers the first request with answer and then keeps the
// connection open, sending nothing more, until the client closes it.
func stalling(t *testing.T, answer string) string {
	return serveScript(t, 1<<20, true, []string{answer})
}

func serveScript(t *testing.T, piece int, hold bool, responses []string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	accepted := make(chan net.Conn, 1)
	t.Cleanup(func() {
		ln.Close()
		select {
		case c := <-accepted:
			c.Close()
		default:
		}
	})
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		accepted <- c
		br := bufio.NewReader(c)
		for _, resp := range responses {
			for { // read one request head (tests send no bodies)
				l, err := br.ReadString('\n')
				if err != nil {
					return
				}
				if l == "\r\n" {
					break
				}
			}
			for i := 0; i < len(resp); i += piece {
				c.Write([]byte(resp[i:min(len(resp), i+piece)]))
				if piece < len(resp) && i < 40*piece {
					time.Sleep(time.Millisecond) // a slow server: the pieces arrive apart
				}
			}
		}
		if !hold {
			c.(*net.TCPConn).CloseWrite()
		}
		io.Copy(io.Discard, br) // until the client closes
	}()
	return ln.Addr().String()
}

// oneConn drives one connection of an event loop to addr, one request at a
// time, the way a run does.
type oneConn struct {
	t *testing.T
	l *evloop
	c *conn
}

func newOneConn(t *testing.T, addr string, timeout time.Duration) *oneConn {
	t.Helper()
	r, err := newRun(Config{Target: Target{URL: "http://" + addr}, Mix: simpleMix("/"),
		Closed: &Closed{Connections: 1}, Duration: time.Hour, Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	r.start, r.measure = time.Now(), time.Now()
	conns := r.newConns()
	l, err := newEvloop(r, 0, 1, conns, func() {})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l.close)
	return &oneConn{t: t, l: l, c: conns[0]}
}

// do sends req (a HEAD request's answer has no body) and waits for its
// end: the status and the failure kind as recorded, and the bytes written.
func (o *oneConn) do(req []byte, head bool) (status int, kind errKind, out int64) {
	sh := o.c.sh
	before, kinds := sh.status, sh.kinds
	o.l.tick()
	o.l.send(o.c, &tmpl{isHead: head, expect: ExpectNoServerError, ep: -1}, req, o.l.t, o.l.t, o.l.t, true)
	for o.c.busy {
		evs, err := o.l.p.wait(int64(time.Millisecond))
		if err != nil {
			o.t.Fatal(err)
		}
		o.l.tick()
		for _, ev := range evs {
			o.l.event(o.l.conns[ev.Fd], ev.Events)
		}
		o.l.expire(o.l.ns)
	}
	for i := range sh.status {
		if sh.status[i] != before[i] {
			status = i
		}
	}
	for k := range sh.kinds {
		if sh.kinds[k] != kinds[k] {
			kind = errKind(k)
		}
	}
	return status, kind, o.c.out
}

func TestClientParsesResponses(t *testing.T) {
	body := strings.Repeat("b", 40000)
	responses := []string{
		"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
		"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\ncontent-length: 0\r\n\r\n",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=y\r\nhello\r\n9c40\r\n" + body + "\r\n0\r\nX-Checksum: t\r\n\r\n",
		"HTTP/1.1 204 No Content\r\n\r\n",
		"HTTP/1.1 404 Not Found\r\nContent-Length: " + "40000" + "\r\n\r\n" + body,
		"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok",
	}
	want := []int{200, 201, 200, 204, 404, 200}
	for _, piece := range []int{1 << 20, 7} {
		addr := scripted(t, piece, responses...)
		o := newOneConn(t, addr, 5*time.Second)
		req := []byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
		var total int
		for i, w := range want {
			st, kind, out := o.do(req, false)
			if kind != errNone || st != w || out != int64(len(req)) {
				t.Fatalf("piece %d response %d: status %d kind %v out %d, want %d", piece, i, st, kind, out, w)
			}
			total += len(responses[i])
		}
		if o.c.fd >= 0 {
			t.Error("Connection: close did not close")
		}
		if o.c.in != int64(total) {
			t.Errorf("piece %d: counted %d bytes in, sent %d", piece, o.c.in, total)
		}
	}
}

// HEAD (a Content-Length but no body), 103 before the answer, a header
// larger than the read buffer, and a body delimited by the connection's end.
func TestClientHeadLargeHeaderAndBodyToEOF(t *testing.T) {
	big := strings.Repeat("h", 100<<10)
	responses := []string{
		"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n",
		"HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
		"HTTP/1.1 200 OK\r\nX-Big: " + big + "\r\nContent-Length: 2\r\n\r\nok",
		"HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\nok",
		"HTTP/1.1 200 OK\r\n\r\nto the end",
	}
	addr := scripted(t, 1<<20, responses...)
	o := newOneConn(t, addr, 5*time.Second)
	req := []byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	total := 0
	for i := range responses {
		st, kind, _ := o.do(req, i == 0)
		if kind != errNone || st != 200 {
			t.Fatalf("response %d: status %d kind %v", i, st, kind)
		}
		if i < len(responses)-1 && o.c.fd < 0 {
			t.Fatalf("response %d closed a keep-alive connection", i)
		}
		total += len(responses[i])
	}
	if o.c.fd >= 0 || string(o.c.resp.Body()) != "to the end" {
		t.Errorf("body to EOF: connection open %v, body %q", o.c.fd >= 0, o.c.resp.Body())
	}
	if o.c.in != int64(total) {
		t.Errorf("counted %d bytes in, sent %d", o.c.in, total)
	}
}

func TestClientErrorKinds(t *testing.T) {
	for _, tc := range []struct {
		name, answer string // the server's whole answer
		stall        bool   // then it stalls; else it closes
		timeout      time.Duration
		want         errKind
	}{
		{"malformed", "FOO\r\n\r\n", false, time.Second, errProtocol},
		{"truncated body then close", "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", false, time.Second, errReset},
		// fasthttp wraps the EOF in ErrBrokenChunk.
		{"truncated chunk then close", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel", false, time.Second, errReset},
		// Also wrapped by fasthttp.
		{"stalled inside a chunk-size line", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5", true, 20 * time.Millisecond, errTimeout},
		{"malformed chunk size", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", false, time.Second, errProtocol},
	} {
		var addr string
		if tc.stall {
			addr = stalling(t, tc.answer)
		} else {
			addr = scripted(t, 1<<20, tc.answer)
		}
		o := newOneConn(t, addr, tc.timeout)
		if _, k, _ := o.do([]byte("GET / HTTP/1.1\r\n\r\n"), false); k != tc.want {
			t.Errorf("%s: kind %v, want %v", tc.name, k, tc.want)
		}
	}
	// No answer: timeout.
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	defer ln.Close()
	o := newOneConn(t, ln.Addr().String(), 100*time.Millisecond)
	t0 := time.Now()
	if _, k, _ := o.do([]byte("GET / HTTP/1.1\r\n\r\n"), false); k != errTimeout {
		t.Errorf("silent server: kind %v", k)
	}
	if d := time.Since(t0); d < 90*time.Millisecond || d > 2*time.Second {
		t.Errorf("timeout took %v, want ~100ms", d)
	}
	// Nobody listening: connect.
	addr := ln.Addr().String()
	ln.Close()
	o = newOneConn(t, addr, time.Second)
	if _, k, _ := o.do([]byte("GET / HTTP/1.1\r\n\r\n"), false); k != errConnect {
		t.Errorf("refused: kind %v", k)
	}
}
