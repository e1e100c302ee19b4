package loadgen

import (
	"fmt"
	"math/rand/v2"
	"net/textproto"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
)

// seg is one piece of a request template: literal bytes or a field rendered
// per request.
type seg struct {
	lit    []byte
	kind   byte // 0 literal, 'r' rand, 's' seq
	lo, hi int64
}

// tmpl is a request compiled to bytes. A static request (no fields) is
// fully pre-rendered in static; otherwise head and body are rendered per
// request into the worker's buffer.
type tmpl struct {
	static  []byte
	head    []seg // request line and headers, without Content-Length and the blank line
	body    []seg
	hasBody bool
	isHead  bool
	expect  int
	seq     *atomic.Int64 // shared counter for {seq} fields
}

// compile turns r into a template for a target with Host host and base path base.
func compile(r Request, host, base string) (*tmpl, error) {
	method := r.Method
	if method == "" {
		method = "GET"
	}
	if strings.ContainsAny(method, " \r\n") {
		return nil, fmt.Errorf("method %q: must be a single token", method)
	}
	if !strings.HasPrefix(r.Path, "/") {
		return nil, fmt.Errorf("path %q: must start with /", r.Path)
	}
	if r.Expect != 0 && (r.Expect < 100 || r.Expect > 599) {
		return nil, fmt.Errorf("expect %d: must be an HTTP status 100..599 (0: any 2xx)", r.Expect)
	}
	t := &tmpl{isHead: method == "HEAD", expect: r.Expect, seq: new(atomic.Int64)}
	var sb strings.Builder
	sb.WriteString(method + " " + base)
	pathSegs, err := parseFields(r.Path)
	if err != nil {
		return nil, fmt.Errorf("path %q: %w", r.Path, err)
	}
	for _, s := range pathSegs {
		if strings.ContainsAny(string(s.lit), " \r\n") {
			return nil, fmt.Errorf("path %q: spaces and line breaks must be escaped (%%20)", r.Path)
		}
	}
	var head []seg
	head = append(head, seg{lit: []byte(sb.String())})
	head = append(head, pathSegs...)
	sb.Reset()
	sb.WriteString(" HTTP/1.1\r\nHost: " + host + "\r\n")
	keys := make([]string, 0, len(r.Header))
	for k := range r.Header {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	hasUA := false
	for _, k := range keys {
		v := r.Header[k]
		if strings.ContainsAny(k, " :\r\n") || strings.ContainsAny(v, "\r\n") {
			return nil, fmt.Errorf("header %q: invalid name or value", k)
		}
		ck := textproto.CanonicalMIMEHeaderKey(k)
		switch ck {
		case "Host", "Content-Length", "Connection", "Transfer-Encoding":
			return nil, fmt.Errorf("header %q: set by the generator", k)
		case "User-Agent":
			hasUA = true
		}
		sb.WriteString(k + ": " + v + "\r\n")
	}
	if !hasUA {
		sb.WriteString("User-Agent: pgrst-lab-loadgen\r\n")
	}
	head = append(head, seg{lit: []byte(sb.String())})
	t.head = mergeLits(head)
	if len(r.Body) > 0 || method == "POST" || method == "PUT" || method == "PATCH" {
		t.hasBody = true
		b, err := parseFields(string(r.Body))
		if err != nil {
			return nil, fmt.Errorf("body: %w", err)
		}
		t.body = b
	}
	if t.dynamic() {
		return t, nil
	}
	t.static = t.render(nil, nil, nil)
	return t, nil
}

func (t *tmpl) dynamic() bool {
	for _, s := range t.head {
		if s.kind != 0 {
			return true
		}
	}
	for _, s := range t.body {
		if s.kind != 0 {
			return true
		}
	}
	return false
}

// render appends the request to dst (scratch is reused for the body) and
// returns it. A static template returns its pre-built bytes.
func (t *tmpl) render(dst, scratch *[]byte, rng *rand.Rand) []byte {
	if t.static != nil {
		return t.static
	}
	var d, sc []byte
	if dst != nil {
		d, sc = (*dst)[:0], (*scratch)[:0]
	}
	d = t.renderSegs(d, t.head, rng)
	if t.hasBody {
		sc = t.renderSegs(sc, t.body, rng)
		d = append(d, "Content-Length: "...)
		d = strconv.AppendInt(d, int64(len(sc)), 10)
		d = append(d, "\r\n\r\n"...)
		d = append(d, sc...)
	} else {
		d = append(d, "\r\n"...)
	}
	if dst != nil {
		*dst, *scratch = d, sc
	}
	return d
}

func (t *tmpl) renderSegs(d []byte, segs []seg, rng *rand.Rand) []byte {
	for i := range segs {
		s := &segs[i]
		switch s.kind {
		case 0:
			d = append(d, s.lit...)
		case 'r':
			v := s.lo
			if rng != nil && s.hi > s.lo {
				v += rng.Int64N(s.hi - s.lo + 1)
			}
			d = strconv.AppendInt(d, v, 10)
		case 's':
			d = strconv.AppendInt(d, s.lo+t.seq.Add(1)-1, 10)
		}
	}
	return d
}

// parseFields splits s into literals and `{rand LO HI}` / `{seq START}`
// fields. Other braces (JSON) are literal.
func parseFields(s string) ([]seg, error) {
	var out []seg
	for {
		i := indexField(s)
		if i < 0 {
			if s != "" {
				out = append(out, seg{lit: []byte(s)})
			}
			return mergeLits(out), nil
		}
		if i > 0 {
			out = append(out, seg{lit: []byte(s[:i])})
		}
		end := strings.IndexByte(s[i:], '}')
		if end < 0 {
			return nil, fmt.Errorf("unterminated field %q", s[i:])
		}
		f := strings.Fields(s[i+1 : i+end])
		s = s[i+end+1:]
		switch {
		case f[0] == "rand" && len(f) == 3:
			lo, err1 := strconv.ParseInt(f[1], 10, 64)
			hi, err2 := strconv.ParseInt(f[2], 10, 64)
			if err1 != nil || err2 != nil || hi < lo {
				return nil, fmt.Errorf("field {%s}: want {rand LO HI} with integers LO <= HI", strings.Join(f, " "))
			}
			out = append(out, seg{kind: 'r', lo: lo, hi: hi})
		case f[0] == "seq" && len(f) <= 2:
			var start int64 = 1
			if len(f) == 2 {
				v, err := strconv.ParseInt(f[1], 10, 64)
				if err != nil {
					return nil, fmt.Errorf("field {%s}: want {seq START} with an integer START", strings.Join(f, " "))
				}
				start = v
			}
			out = append(out, seg{kind: 's', lo: start})
		default:
			return nil, fmt.Errorf("field {%s}: unknown (allowed: {rand LO HI}, {seq START})", strings.Join(f, " "))
		}
	}
}

// indexField finds the next "{rand " or "{seq" field.
func indexField(s string) int {
	a := strings.Index(s, "{rand ")
	b := strings.Index(s, "{seq")
	if b >= 0 && len(s) > b+4 && s[b+4] != ' ' && s[b+4] != '}' {
		b = -1
	}
	switch {
	case a < 0:
		return b
	case b < 0:
		return a
	}
	return min(a, b)
}

func mergeLits(in []seg) []seg {
	var out []seg
	for _, s := range in {
		if s.kind == 0 && len(out) > 0 && out[len(out)-1].kind == 0 {
			out[len(out)-1].lit = append(out[len(out)-1].lit, s.lit...)
			continue
		}
		if s.kind == 0 && len(s.lit) == 0 {
			continue
		}
		out = append(out, s)
	}
	return out
}
