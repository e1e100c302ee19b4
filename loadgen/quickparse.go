package loadgen

import (
	"bytes"
	"encoding/binary"
)

// quickAnswer is an answer read by quickParse: the common keep-alive
// answer of PostgREST and most servers, without fasthttp.
type quickAnswer struct {
	status int
	end    int    // the answer's length, header and body
	timing []byte // its Server-Timing value (in the read buffer), nil without
}

// quickParse reads the common answer from b, the bytes read so far, in one
// pass and without copying: "HTTP/1.1 SSS reason", a status from 200 to 599
// other than 204 and 304, header lines of token names and plain values, a
// Content-Length, and nothing after the body. ok is false for anything else
// (a header not all in yet, 1xx, chunked, Connection, HTTP/1.0, a duplicate
// Content-Length, a folded line or a byte outside printable ASCII, bytes
// past the body, ...): fasthttp then parses the answer, as it parses every
// answer it is in doubt about. With ok, the answer is complete when end is
// len(b); a shorter b still lacks body bytes.
//
// fasthttp parsed every answer before; on the generator's real workload its
// parse (header fields copied into its Response, the body copied out) was
// the largest part of the generator's own CPU per request. FuzzQuickParse
// holds the two to the same reading of every answer quickParse accepts.
func quickParse(b []byte) (a quickAnswer, ok bool) {
	const proto = "HTTP/1.1 "
	if len(b) < len(proto)+4 || string(b[:len(proto)]) != proto {
		return a, false
	}
	s := b[len(proto):]
	if s[0] < '2' || s[0] > '5' || !isDigit(s[1]) || !isDigit(s[2]) || (s[3] != ' ' && s[3] != '\r') {
		return a, false
	}
	a.status = int(s[0]-'0')*100 + int(s[1]-'0')*10 + int(s[2]-'0')
	if a.status == 204 || a.status == 304 {
		return a, false
	}
	i := bytes.IndexByte(s, '\n')
	if i < 4 || s[i-1] != '\r' || !plainValue(s[3:i-1]) {
		return a, false
	}
	off := len(proto) + i + 1
	length := -1
	for {
		rest := b[off:]
		k := 0 // the name: token bytes up to the colon
		for k < len(rest) && tchar[rest[k]] {
			k++
		}
		if k == 0 {
			if len(rest) >= 2 && rest[0] == '\r' && rest[1] == '\n' {
				off += 2 // the header's end
				break
			}
			return a, false
		}
		if k == len(rest) || rest[k] != ':' {
			return a, false // not all in yet, or not a plain name
		}
		j := bytes.IndexByte(rest[k:], '\n')
		if j < 0 || rest[k+j-1] != '\r' {
			return a, false // not all in yet, or a bare LF
		}
		name, value := rest[:k], trimOWS(rest[k+1:k+j-1])
		off += k + j + 1
		if off > maxHeaderSize {
			return a, false // fasthttp refuses it
		}
		if !plainValue(value) {
			return a, false
		}
		switch len(name) {
		case len("content-length"):
			if !bytes.EqualFold(name, []byte("content-length")) {
				break
			}
			if length >= 0 {
				return a, false
			}
			if length = digits(value); length < 0 {
				return a, false
			}
		case len("server-timing"):
			if a.timing == nil && name[0]|0x20 == 's' && bytes.EqualFold(name, []byte("server-timing")) {
				a.timing = value[:len(value):len(value)]
			}
		case len("transfer-encoding"), len("connection"):
			if bytes.EqualFold(name, []byte("transfer-encoding")) || bytes.EqualFold(name, []byte("connection")) {
				return a, false
			}
		}
	}
	if length < 0 {
		return a, false // the body ends at the connection's close, or is chunked
	}
	a.end = off + length
	if len(b) > a.end {
		return a, false // bytes after the answer: fasthttp's reading of them stands
	}
	return a, true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// digits parses a Content-Length: 1 to 15 decimal digits, else -1.
func digits(v []byte) int {
	if len(v) == 0 || len(v) > 15 {
		return -1
	}
	n := 0
	for _, c := range v {
		if !isDigit(c) {
			return -1
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// trimOWS drops a header value's optional white space.
func trimOWS(v []byte) []byte {
	for len(v) > 0 && (v[0] == ' ' || v[0] == '\t') {
		v = v[1:]
	}
	for len(v) > 0 && (v[len(v)-1] == ' ' || v[len(v)-1] == '\t') {
		v = v[:len(v)-1]
	}
	return v
}

// plainValue reports whether v holds only printable ASCII, spaces and tabs.
// It looks at eight bytes at a time (a header is a few hundred bytes, and
// the loop's answer is parsed while the server's run left the cache cold).
func plainValue(v []byte) bool {
	if len(v) < 8 {
		return plainBytes(v)
	}
	for i := 0; ; i += 8 {
		i = min(i, len(v)-8) // the last word may overlap the one before
		x := binary.LittleEndian.Uint64(v[i:])
		// A byte below 0x20 (the borrow of x-0x20.. where x has no high
		// bit), or at 0x7f and above (x+1 or x itself with the high bit).
		if ((x-0x2020202020202020)&^x|(x+0x0101010101010101)|x)&0x8080808080808080 != 0 && !plainBytes(v[i:i+8]) {
			return false
		}
		if i == len(v)-8 {
			return true
		}
	}
}

func plainBytes(v []byte) bool {
	for _, c := range v {
		if (c < ' ' && c != '\t') || c >= 0x7f {
			return false
		}
	}
	return true
}

// tchar marks the bytes of an RFC 9110 token (a header name).
var tchar = func() (t [256]bool) {
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = true, true
	}
	for _, c := range "!#$%&'*+-.^_`|~" {
		t[c] = true
	}
	return t
}()
