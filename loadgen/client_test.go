package loadgen

import (
	"bufio"
	"net"
	"strings"
	"testing"
	"time"
)

// scripted answers each request read on a real loopback connection with the
// next canned response, written in chunks of `piece` bytes to exercise
// split reads.
func scripted(t *testing.T, piece int, responses ...string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
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
					time.Sleep(time.Millisecond)
				}
			}
		}
		time.Sleep(50 * time.Millisecond)
	}()
	return ln.Addr().String()
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
		c := newClient(func() (net.Conn, error) { return net.Dial("tcp", addr) }, 5*time.Second)
		req := []byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
		var total int
		for i, w := range want {
			st, out, kind := c.do(req, false, time.Now())
			if kind != errNone || st != w || out != int64(len(req)) {
				t.Fatalf("piece %d response %d: status %d kind %v out %d, want %d", piece, i, st, kind, out, w)
			}
			total += len(responses[i])
		}
		if c.conn != nil {
			t.Error("Connection: close did not close")
		}
		if c.in != int64(total) {
			t.Errorf("piece %d: counted %d bytes in, sent %d", piece, c.in, total)
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
	c := newClient(func() (net.Conn, error) { return net.Dial("tcp", addr) }, 5*time.Second)
	req := []byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	total := 0
	for i := range responses {
		st, _, kind := c.do(req, i == 0, time.Now())
		if kind != errNone || st != 200 {
			t.Fatalf("response %d: status %d kind %v", i, st, kind)
		}
		if i < len(responses)-1 && c.conn == nil {
			t.Fatalf("response %d closed a keep-alive connection", i)
		}
		total += len(responses[i])
	}
	if c.conn != nil || string(c.resp.Body()) != "to the end" {
		t.Errorf("body to EOF: connection open %v, body %q", c.conn != nil, c.resp.Body())
	}
	if c.in != int64(total) {
		t.Errorf("counted %d bytes in, sent %d", c.in, total)
	}
}

func TestClientErrorKinds(t *testing.T) {
	// Malformed.
	addr := scripted(t, 1<<20, "FOO\r\n\r\n")
	c := newClient(func() (net.Conn, error) { return net.Dial("tcp", addr) }, time.Second)
	if _, _, k := c.do([]byte("GET / HTTP/1.1\r\n\r\n"), false, time.Now()); k != errProtocol {
		t.Errorf("malformed: kind %v", k)
	}
	// Truncated body then close: reset.
	addr = scripted(t, 1<<20, "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc")
	c = newClient(func() (net.Conn, error) { return net.Dial("tcp", addr) }, time.Second)
	if _, _, k := c.do([]byte("GET / HTTP/1.1\r\n\r\n"), false, time.Now()); k != errReset {
		t.Errorf("truncated: kind %v", k)
	}
	// Truncated chunked body then close: reset (fasthttp wraps the EOF in ErrBrokenChunk).
	addr = scripted(t, 1<<20, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel")
	c = newClient(func() (net.Conn, error) { return net.Dial("tcp", addr) }, time.Second)
	if _, _, k := c.do([]byte("GET / HTTP/1.1\r\n\r\n"), false, time.Now()); k != errReset {
		t.Errorf("truncated chunk: kind %v", k)
	}
	// Stalled inside a chunk-size line: timeout (also wrapped by fasthttp).
	addr = scripted(t, 1<<20, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5")
	c = newClient(func() (net.Conn, error) { return net.Dial("tcp", addr) }, 20*time.Millisecond)
	if _, _, k := c.do([]byte("GET / HTTP/1.1\r\n\r\n"), false, time.Now()); k != errTimeout {
		t.Errorf("stalled chunk: kind %v", k)
	}
	// A malformed chunk size: protocol.
	addr = scripted(t, 1<<20, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")
	c = newClient(func() (net.Conn, error) { return net.Dial("tcp", addr) }, time.Second)
	if _, _, k := c.do([]byte("GET / HTTP/1.1\r\n\r\n"), false, time.Now()); k != errProtocol {
		t.Errorf("bad chunk size: kind %v", k)
	}
	// No answer: timeout.
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	defer ln.Close()
	c = newClient(func() (net.Conn, error) { return net.Dial("tcp", ln.Addr().String()) }, 100*time.Millisecond)
	t0 := time.Now()
	if _, _, k := c.do([]byte("GET / HTTP/1.1\r\n\r\n"), false, time.Now()); k != errTimeout {
		t.Errorf("silent server: kind %v", k)
	}
	if d := time.Since(t0); d < 90*time.Millisecond || d > 2*time.Second {
		t.Errorf("timeout took %v, want ~100ms", d)
	}
	// Nobody listening: connect.
	addr = ln.Addr().String()
	ln.Close()
	c = newClient(func() (net.Conn, error) { return net.Dial("tcp", addr) }, time.Second)
	if _, _, k := c.do([]byte("GET / HTTP/1.1\r\n\r\n"), false, time.Now()); k != errConnect {
		t.Errorf("refused: kind %v", k)
	}
}
