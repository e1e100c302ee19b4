package loadgen

import (
	"bytes"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"net/textproto"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/valyala/fasthttp"
)

// seg is one piece of a request template: literal bytes or a field rendered
// per request.
type seg struct {
	lit    []byte
	kind   byte // 0 literal, 'r' rand, 's' seq, 'l' length of the rendered body, 'j' jwt
	lo, hi int64
	jwt    *jwtField
}

// tmpl is a request compiled to bytes by fasthttp. A static request (no
// fields) is fully pre-built in static; otherwise head (request line,
// headers, blank line, and the body when it has no fields) and body are
// rendered per request into the worker's buffers.
type tmpl struct {
	static []byte
	head   []seg
	body   []seg // a body with fields; head then has an 'l' seg for its Content-Length
	isHead bool
	expect int
	seq    *atomic.Int64 // shared counter for {seq} fields
	ep     int           // index in runner.eps (Config.ByRequest), else -1
}

const (
	userAgent = "pgrst-lab-loadgen"
	// fieldMark stands for a path field in the request fasthttp writes
	// (NUL is refused in paths and headers, so it cannot be literal).
	fieldMark = "\x00"
	// lenMark stands for the Content-Length of a body with fields (an int
	// on every platform).
	lenMark = 2109876543
)

// compile turns r into a template for a target with Host host and base path
// base. fasthttp writes the request once (fasthttp.Request: method, URI,
// Host, User-Agent, headers, Content-Length, body), with a marker where a
// path field goes and, for a body with fields, a marker Content-Length; the
// markers are then split out into fields rendered per request.
func compile(r Request, host, base string) (*tmpl, error) { return compileWith(r, host, base, nil) }

// compileWith is compile with the secret {jwt} fields sign with.
func compileWith(r Request, host, base string, secret []byte) (*tmpl, error) {
	return compileBudget(r, host, base, newSigner(string(secret), nil), newBudget())
}

// budget bounds what compiling allocates for {jwt pool=N} fields across
// every request of a run or a targets file.
type budget struct{ tokens int }

// MaxJWTTokens bounds the pooled tokens of all {jwt} fields of a run (or
// of a targets file) together: each is signed and kept in memory.
const MaxJWTTokens = 2 * MaxJWTPool

func newBudget() *budget { return &budget{tokens: MaxJWTTokens} }

// compileBudget is compileWith drawing the {jwt} tokens from b.
func compileBudget(r Request, host, base string, keys *signer, b *budget) (*tmpl, error) {
	method, host, err := checkRequest(r, host)
	if err != nil {
		return nil, err
	}
	t := &tmpl{isHead: method == "HEAD", expect: r.Expect, seq: new(atomic.Int64), ep: -1}
	var req fasthttp.Request
	h := &req.Header
	h.DisableNormalizing() // header names go out as given
	h.SetNoDefaultContentType(true)
	h.SetMethod(method)
	h.SetHost(host)
	uri, fields, err := uriWithMarks(r.Path, base, b)
	if err != nil {
		return nil, err
	}
	req.SetRequestURIBytes(uri)
	hfields, err := setHeaders(h, r.Header, b)
	if err != nil {
		return nil, err
	}
	fields = append(fields, hfields...)
	body, err := parseFields(string(r.Body), b)
	if err != nil {
		return nil, wrapSafe("body", "body", err)
	}
	var wire []byte
	if hasFields(body) {
		h.SetContentLength(lenMark)
		wire = h.AppendBytes(nil)
		t.body = body
	} else {
		req.SetBody(r.Body)
		var buf bytes.Buffer
		if _, err := req.WriteTo(&buf); err != nil {
			return nil, wrapSafe("write request", "write request", plainErr("%v", err))
		}
		wire = buf.Bytes()
	}
	if t.head, err = splitMarks(wire, fields, t.body != nil); err != nil {
		return nil, err
	}
	if len(fields) == 0 && t.body == nil {
		t.static = wire
	}
	for _, segs := range [][]seg{t.head, t.body} {
		for _, sg := range segs {
			if sg.kind == 'j' {
				if err := sg.jwt.bind(keys); err != nil {
					return nil, err
				}
			}
		}
	}
	return t, nil
}

// CheckRequest reports whether r can be sent: method, path, headers,
// templates (a {jwt} field needs jwtSecret, an alg=RS256 one the PEM
// private key jwtPrivateKey).
func CheckRequest(r Request, jwtSecret string, jwtPrivateKey []byte) error {
	_, err := compileBudget(r, "", "", newSigner(jwtSecret, jwtPrivateKey), newBudget())
	return err
}

// checkRequest refuses what cannot go on the wire and returns the method
// and host to use (GET and localhost by default).
func checkRequest(r Request, host string) (method, hostOut string, err error) {
	method = r.Method
	if method == "" {
		method = "GET"
	}
	if strings.ContainsAny(method, " \r\n\x00") {
		return "", "", &safeError{safe: "method: must be a single token", full: fmt.Sprintf("method %q: must be a single token", method)}
	}
	if !strings.HasPrefix(r.Path, "/") {
		return "", "", &safeError{safe: "path: must start with /", full: fmt.Sprintf("path %q: must start with /", r.Path)}
	}
	if r.Expect != 0 && r.Expect != ExpectNoServerError && (r.Expect < 100 || r.Expect > 599) {
		return "", "", plainErr("expect %d: must be an HTTP status 100..599 (0: any 2xx, -1: any below 500)", r.Expect)
	}
	if host == "" {
		host = "localhost" // as Target.hostAndBase; Validate compiles without a target
	}
	if strings.ContainsAny(host, " \r\n\x00") {
		return "", "", &safeError{safe: "host: invalid", full: fmt.Sprintf("host %q: invalid", host)}
	}
	return method, host, nil
}

// uriWithMarks is base + path with a fieldMark where each template field
// goes, and the fields in order.
func uriWithMarks(path, base string, b *budget) ([]byte, []seg, error) {
	segs, err := parseFields(path, b)
	if err != nil {
		return nil, nil, wrapSafe("path", fmt.Sprintf("path %q", path), err)
	}
	uri := []byte(base)
	var fields []seg
	for _, s := range segs {
		if s.kind == 0 {
			if bytes.ContainsAny(s.lit, " \r\n\x00") {
				return nil, nil, &safeError{safe: "path: spaces and line breaks must be escaped (%20)",
					full: fmt.Sprintf("path %q: spaces and line breaks must be escaped (%%20)", path)}
			}
			uri = append(uri, s.lit...)
			continue
		}
		uri = append(uri, fieldMark...)
		fields = append(fields, s)
	}
	return uri, fields, nil
}

// setHeaders sets the request's headers in name order, refusing invalid
// ones and those the generator owns; User-Agent defaults to the lab's. A
// value's template fields become fieldMarks, returned in order (fasthttp
// writes ordinary headers in the order set, after the request line).
func setHeaders(h *fasthttp.RequestHeader, header map[string]string, b *budget) ([]seg, error) {
	hasUA := false
	var fields []seg
	for _, k := range slices.Sorted(maps.Keys(header)) {
		v := header[k]
		if k == "" || strings.ContainsAny(k, " :\r\n\x00") || strings.ContainsAny(v, "\r\n\x00") {
			return nil, &safeError{safe: "a header: invalid name or value", full: fmt.Sprintf("header %q: invalid name or value", k)}
		}
		canon := textproto.CanonicalMIMEHeaderKey(k)
		switch canon {
		case "Host", "Content-Length", "Connection", "Transfer-Encoding":
			return nil, &safeError{safe: "a header: Host, Content-Length, Connection and Transfer-Encoding are set by the generator",
				full: fmt.Sprintf("header %q: set by the generator", k)}
		case "User-Agent":
			hasUA = true
		}
		segs, err := parseFields(v, b)
		if err != nil {
			return nil, wrapSafe("a header", fmt.Sprintf("header %q", k), err)
		}
		if hasFields(segs) {
			if canon == "User-Agent" || canon == "Content-Type" || canon == "Cookie" {
				return nil, &safeError{safe: "a header: templates are not allowed in User-Agent, Content-Type or Cookie",
					full: fmt.Sprintf("header %q: templates are not allowed in User-Agent, Content-Type or Cookie", k)}
			}
			var b []byte
			for _, sg := range segs {
				if sg.kind == 0 {
					b = append(b, sg.lit...)
					continue
				}
				b = append(b, fieldMark...)
				fields = append(fields, sg)
			}
			v = string(b)
		}
		h.Set(k, v)
	}
	if !hasUA {
		h.SetUserAgent(userAgent)
	}
	return fields, nil
}

// splitMarks cuts the request fasthttp wrote at its markers: each
// fieldMark becomes the next of fields, the lenMark (if withLen) an 'l' seg.
func splitMarks(wire []byte, fields []seg, withLen bool) ([]seg, error) {
	lm := strconv.AppendInt(nil, lenMark, 10)
	if withLen && bytes.Count(wire, lm) != 1 {
		return nil, plainErr("request: path or headers hold %s, which the generator uses as a marker", lm)
	}
	var out []seg
	lens := 0
	for len(wire) > 0 {
		i, n := bytes.IndexByte(wire, fieldMark[0]), len(fieldMark)
		if withLen {
			if j := bytes.Index(wire, lm); j >= 0 && (i < 0 || j < i) {
				i, n = j, len(lm)
			}
		}
		if i < 0 {
			out = append(out, seg{lit: bytes.Clone(wire)})
			break
		}
		out = append(out, seg{lit: bytes.Clone(wire[:i])})
		if n == len(lm) {
			out = append(out, seg{kind: 'l'})
			lens++
		} else {
			if len(fields) == 0 {
				return nil, plainErr("request: unexpected NUL byte")
			}
			out = append(out, fields[0])
			fields = fields[1:]
		}
		wire = wire[i+n:]
	}
	if len(fields) != 0 || (withLen && lens != 1) {
		return nil, plainErr("request: fields lost in the written request") // a bug, not bad input
	}
	return mergeLits(out), nil
}

func hasFields(segs []seg) bool {
	for _, s := range segs {
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
	sc = t.renderSegs(sc, t.body, rng, 0)
	d = t.renderSegs(d, t.head, rng, len(sc))
	d = append(d, sc...)
	if dst != nil {
		*dst, *scratch = d, sc
	}
	return d
}

func (t *tmpl) renderSegs(d []byte, segs []seg, rng *rand.Rand, bodyLen int) []byte {
	for i := range segs {
		s := &segs[i]
		switch s.kind {
		case 0:
			d = append(d, s.lit...)
		case 'r':
			v := s.lo
			if rng != nil && s.hi > s.lo {
				// In uint64, hi-lo+1 cannot overflow for any bounds
				// parseFields lets through (and 0 would mean the full range).
				if n := uint64(s.hi) - uint64(s.lo) + 1; n != 0 {
					v = int64(uint64(s.lo) + rng.Uint64N(n))
				} else {
					v = int64(rng.Uint64())
				}
			}
			d = strconv.AppendInt(d, v, 10)
		case 's':
			d = strconv.AppendInt(d, s.lo+t.seq.Add(1)-1, 10)
		case 'l':
			d = strconv.AppendInt(d, int64(bodyLen), 10)
		case 'j':
			d = s.jwt.render(d)
		}
	}
	return d
}

// parseFields splits s into literals and `{rand LO HI}` / `{seq START}`
// fields. Other braces (JSON) are literal.
func parseFields(s string, b *budget) ([]seg, error) {
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
			return nil, &safeError{safe: "an unterminated {...} field", full: fmt.Sprintf("unterminated field %q", s[i:])}
		}
		f := strings.Fields(s[i+1 : i+end])
		s = s[i+end+1:]
		switch {
		case f[0] == "jwt":
			j, err := parseJWT(f[1:], b)
			if err != nil {
				return nil, err
			}
			out = append(out, seg{kind: 'j', jwt: j})
		case f[0] == "rand" && len(f) == 3:
			lo, err1 := strconv.ParseInt(f[1], 10, 64)
			hi, err2 := strconv.ParseInt(f[2], 10, 64)
			if err1 != nil || err2 != nil || !RandBoundsOK(lo, hi) {
				return nil, fieldErr(f, randWant)
			}
			out = append(out, seg{kind: 'r', lo: lo, hi: hi})
		case f[0] == "seq" && len(f) <= 2:
			var start int64 = 1
			if len(f) == 2 {
				v, err := strconv.ParseInt(f[1], 10, 64)
				if err != nil || !SeqStartOK(v) {
					return nil, fieldErr(f, seqWant)
				}
				start = v
			}
			out = append(out, seg{kind: 's', lo: start})
		default:
			return nil, fieldErr(f, "unknown field (allowed: {rand LO HI}, {seq START}, {jwt CLAIM=VALUE...})")
		}
	}
}

// MaxSeqStart bounds |START| of a {seq START} field, so that the counter
// (at most a run's request count, far below 2^62) never overflows.
const MaxSeqStart = 1 << 62

const (
	randWant = "want {rand LO HI} with integers LO <= HI and HI-LO < 9223372036854775807 (2^63-1)"
	seqWant  = "want {seq START} with an integer START, |START| <= 4611686018427387904 (2^62)"
)

// RandBoundsOK reports whether {rand lo hi} is allowed: lo <= hi, and
// the count of values hi-lo+1 fits an int64.
func RandBoundsOK(lo, hi int64) bool {
	return lo <= hi && uint64(hi)-uint64(lo) < math.MaxInt64
}

// SeqStartOK reports whether {seq start} is allowed.
func SeqStartOK(start int64) bool { return start >= -MaxSeqStart && start <= MaxSeqStart }

// fieldErr is a template field's problem: the full text names the field as
// written; the safe text (for a targets file, see safeError) only its kind.
func fieldErr(words []string, want string) error {
	kind := "{" + words[0] + "}"
	if words[0] != "rand" && words[0] != "seq" && words[0] != "jwt" {
		kind = "a {...} field"
	}
	return &safeError{safe: kind + ": " + want, full: fmt.Sprintf("field {%s}: %s", strings.Join(words, " "), want)}
}

// indexField finds the next "{rand ", "{seq" or "{jwt" field.
func indexField(s string) int {
	first := -1
	for _, name := range []string{"{rand ", "{seq", "{jwt"} {
		i := strings.Index(s, name)
		if i >= 0 && name != "{rand " && len(s) > i+len(name) && s[i+len(name)] != ' ' && s[i+len(name)] != '}' {
			i = -1
		}
		if i >= 0 && (first < 0 || i < first) {
			first = i
		}
	}
	return first
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
