package loadgen

import (
	"bufio"
	"bytes"
	"testing"

	"github.com/valyala/fasthttp"
)

func TestQuickParse(t *testing.T) {
	const timed = "HTTP/1.1 404 Not Found\r\nserver-timing:  jwt;dur=0.1, plan;dur=0.2 \r\nSERVER-TIMING: x;dur=9\r\ncontent-length: 2\r\n\r\n{}"
	cases := []struct {
		name, in string
		ok       bool
		status   int
		end      int // 0: len(in)
		timing   string
	}{
		{name: "PostgREST", in: postgrestAnswer, ok: true, status: 200},
		{name: "no reason", in: "HTTP/1.1 201\r\nContent-Length: 0\r\n\r\n", ok: true, status: 201},
		{name: "first Server-Timing, trimmed", in: timed, ok: true, status: 404, timing: "jwt;dur=0.1, plan;dur=0.2"},
		{name: "body still to come", in: postgrestAnswer[:len(postgrestAnswer)-10], ok: true, status: 200, end: len(postgrestAnswer)},
		{name: "header not all in", in: postgrestAnswer[:60]},
		{name: "bytes after the body", in: postgrestAnswer + "HTTP/1.1"},
		{name: "interim", in: "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"},
		{name: "no content", in: "HTTP/1.1 204 No Content\r\nContent-Length: 3\r\n\r\n"},
		{name: "not modified", in: "HTTP/1.1 304 Not Modified\r\n\r\n"},
		{name: "chunked", in: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"},
		{name: "connection", in: "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"},
		{name: "HTTP/1.0", in: "HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n"},
		{name: "no length", in: "HTTP/1.1 200 OK\r\n\r\n"},
		{name: "two lengths", in: "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nContent-Length: 0\r\n\r\n"},
		{name: "signed length", in: "HTTP/1.1 200 OK\r\nContent-Length: +1\r\n\r\nx"},
		{name: "bare LF", in: "HTTP/1.1 200 OK\nContent-Length: 0\r\n\r\n"},
		{name: "folded line", in: "HTTP/1.1 200 OK\r\nX-A: a\r\n b\r\nContent-Length: 0\r\n\r\n"},
		{name: "space before colon", in: "HTTP/1.1 200 OK\r\nContent-Length : 0\r\n\r\n"},
		{name: "control byte", in: "HTTP/1.1 200 OK\r\nX-A: a\x01\r\nContent-Length: 0\r\n\r\n"},
		{name: "not ASCII", in: "HTTP/1.1 200 OK\r\nX-A: é\r\nContent-Length: 0\r\n\r\n"},
		{name: "status 600", in: "HTTP/1.1 600 Odd\r\nContent-Length: 0\r\n\r\n"},
		{name: "four digits", in: "HTTP/1.1 2000 OK\r\nContent-Length: 0\r\n\r\n"},
	}
	for _, tc := range cases {
		a, ok := quickParse([]byte(tc.in))
		if ok != tc.ok {
			t.Errorf("%s: ok %v, want %v", tc.name, ok, tc.ok)
			continue
		}
		if !ok {
			continue
		}
		end := tc.end
		if end == 0 {
			end = len(tc.in)
		}
		if a.status != tc.status || a.end != end || string(a.timing) != tc.timing {
			t.Errorf("%s: got status %d, end %d, timing %q; want %d, %d, %q", tc.name, a.status, a.end, a.timing, tc.status, end, tc.timing)
		}
	}
}

// quickParse reads every answer it accepts as fasthttp does: same status,
// same length, same Server-Timing, keep-alive; an answer it finds short of
// its body, fasthttp finds incomplete too. The seeds run with the tests;
// `go test -fuzz FuzzQuickParse ./loadgen` searches further.
func FuzzQuickParse(f *testing.F) {
	for _, s := range []string{
		postgrestAnswer,
		postgrestAnswer[:len(postgrestAnswer)-1],
		"HTTP/1.1 201\r\nContent-Length: 0\r\n\r\n",
		"HTTP/1.1 500 Internal Server Error\r\nServer-Timing: plan;dur=1.0\r\nContent-Length: 2\r\n\r\n{}",
		"HTTP/1.1 200 OK\r\nX-Empty:\r\nX-Tab:\tv\t\r\ncontent-length: 3\r\n\r\nabc",
		"HTTP/1.1 404 \r\nServer-Timing:\r\nContent-Length: 0\r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: 007\r\n\r\n1234567",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		a, ok := quickParse(b)
		if !ok {
			return
		}
		var resp fasthttp.Response
		resp.Header.DisableNormalizing()
		src := parseSource{b: b}
		err := resp.Read(bufio.NewReaderSize(&src, maxHeaderSize))
		if a.end > len(b) {
			if err == nil || !src.starved {
				t.Fatalf("quickParse: %d of %d bytes; fasthttp: err %v, starved %v\n%q", len(b), a.end, err, src.starved, b)
			}
			return
		}
		if err != nil {
			t.Fatalf("quickParse read status %d; fasthttp: %v\n%q", a.status, err, b)
		}
		if resp.StatusCode() != a.status || resp.ConnectionClose() || src.off != len(b) || src.starved {
			t.Fatalf("quickParse: status %d, %d bytes, keep-alive; fasthttp: status %d, %d bytes read, close %v, starved %v\n%q",
				a.status, a.end, resp.StatusCode(), src.off, resp.ConnectionClose(), src.starved, b)
		}
		var timing []byte
		for k, v := range resp.Header.All() {
			if bytes.EqualFold(k, serverTimingName) {
				timing = v
				break
			}
		}
		if !bytes.Equal(timing, a.timing) {
			t.Fatalf("Server-Timing: quickParse %q, fasthttp %q\n%q", a.timing, timing, b)
		}
	})
}

func BenchmarkParseAnswer(b *testing.B) {
	in := []byte(postgrestAnswer)
	b.Run("quick", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := quickParse(in); !ok {
				b.Fatal("not read")
			}
		}
	})
	b.Run("fasthttp", func(b *testing.B) {
		var resp fasthttp.Response
		resp.Header.DisableNormalizing()
		resp.KeepBodyBuffer = true
		var src parseSource
		br := bufio.NewReaderSize(&src, bufSize)
		b.ReportAllocs()
		for b.Loop() {
			src = parseSource{b: in}
			br.Reset(&src)
			if err := resp.Read(br); err != nil {
				b.Fatal(err)
			}
		}
	})
}
