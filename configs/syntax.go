package configs

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// item is one directive found in a file: a binding (key = value) or an
// import. Offsets are byte offsets into the file's source.
type item struct {
	isImport bool
	key      string // full key, with the group prefix; for an import: the path
	group    string // the enclosing groups' prefix ("a.b." inside a { b { ... } })
	val      Value
	start    int  // first byte of the directive
	valStart int  // first byte of the value
	end      int  // byte after the value
	ignored  bool // inside a "#;" directive comment
}

// parser is a recursive-descent parser for configurator-pg syntax:
//
//	file       = directives
//	directives = { lws directive hws newline } lws
//	directive  = "import" lws string | "#;" hws directive
//	           | ident lws "=" lws value | ident lws "{" directives "}"
//	value      = "on" | "off" | "true" | "false" | string | number
//	           | "[" lws [ value lws { "," lws value lws } ] "]"
//
// where lws skips white space (newlines included) and # comments, and hws
// skips blanks and a trailing # comment.
type parser struct {
	name  string
	src   []byte
	pos   int
	items []item
	depth int
}

const maxDepth = 100

func (p *parser) errorAt(pos int, format string, args ...any) *SyntaxError {
	line, col := 1, 1
	for i := 0; i < pos && i < len(p.src); {
		r, n := utf8.DecodeRune(p.src[i:])
		if r == '\n' {
			line++
			col = 1
		} else {
			col++
		}
		i += n
	}
	return &SyntaxError{File: p.name, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) eof() bool { return p.pos >= len(p.src) }

func (p *parser) peek() byte {
	if p.eof() {
		return 0
	}
	return p.src[p.pos]
}

func (p *parser) hasPrefix(s string) bool {
	return strings.HasPrefix(string(p.src[p.pos:min(len(p.src), p.pos+len(s))]), s)
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// skipLWS skips white space, newlines and comments ("#;" is not a comment).
func (p *parser) skipLWS() {
	for !p.eof() {
		c := p.peek()
		switch {
		case isSpace(c):
			p.pos++
		case c == '#' && !p.hasPrefix("#;"):
			p.skipToEOL()
		default:
			r, n := utf8.DecodeRune(p.src[p.pos:])
			if r != utf8.RuneError && unicode.IsSpace(r) {
				p.pos += n
				continue
			}
			return
		}
	}
}

// skipHWS skips blanks and a comment up to the end of the line.
func (p *parser) skipHWS() {
	for !p.eof() {
		switch p.peek() {
		case ' ', '\t':
			p.pos++
		case '#':
			p.skipToEOL()
			return
		default:
			return
		}
	}
}

func (p *parser) skipToEOL() {
	for !p.eof() && p.peek() != '\n' && p.peek() != '\r' {
		p.pos++
	}
}

func (p *parser) describe() string {
	if p.eof() {
		return "end of file"
	}
	r, _ := utf8.DecodeRune(p.src[p.pos:])
	return strconv.QuoteRune(r)
}

func (p *parser) directives(prefix string, inGroup, ignored bool) error {
	for {
		p.skipLWS()
		if p.eof() || (inGroup && p.peek() == '}') {
			return nil
		}
		if err := p.directive(prefix, ignored); err != nil {
			return err
		}
		p.skipHWS()
		if p.eof() || (inGroup && p.peek() == '}') {
			return nil
		}
		switch p.peek() {
		case '\n', '\r':
			p.pos++
		default:
			return p.errorAt(p.pos, "unexpected %s after the value (one key = value per line; strings need double quotes)", p.describe())
		}
	}
}

func (p *parser) directive(prefix string, ignored bool) error {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxDepth {
		return p.errorAt(p.pos, "nesting deeper than %d", maxDepth)
	}
	start := p.pos
	if p.hasPrefix("#;") {
		p.pos += 2
		p.skipHWS()
		return p.directive(prefix, true)
	}
	if p.hasPrefix("import") {
		p.pos += len("import")
		p.skipLWS()
		if p.peek() == '"' {
			vs := p.pos
			s, err := p.str()
			if err != nil {
				return err
			}
			p.items = append(p.items, item{isImport: true, key: s, val: Template(s), start: start, valStart: vs, end: p.pos, ignored: ignored})
			return nil
		}
		p.pos = start
	}
	key, err := p.ident()
	if err != nil {
		return err
	}
	p.skipLWS()
	switch p.peek() {
	case '=':
		p.pos++
		p.skipLWS()
		vs := p.pos
		v, err := p.value()
		if err != nil {
			return err
		}
		p.items = append(p.items, item{key: prefix + key, group: prefix, val: v, start: start, valStart: vs, end: p.pos, ignored: ignored})
		return nil
	case '{':
		p.pos++
		if err := p.directives(prefix+key+".", true, ignored); err != nil {
			return err
		}
		p.skipLWS()
		if p.peek() != '}' {
			return p.errorAt(p.pos, "expected } to close group %q, found %s", prefix+key, p.describe())
		}
		p.pos++
		return nil
	default:
		return p.errorAt(p.pos, "expected = after key %q, found %s", prefix+key, p.describe())
	}
}

// ident reads a key: a letter, then letters, digits, _ and -; dots separate
// parts, each starting with a letter. "import" is reserved.
func (p *parser) ident() (string, error) {
	start := p.pos
	first := true
	for !p.eof() {
		r, n := utf8.DecodeRune(p.src[p.pos:])
		if first {
			if !unicode.IsLetter(r) {
				break
			}
			first = false
		} else if r == '.' {
			first = true
		} else if !(unicode.IsLetter(r) || unicode.IsNumber(r) || r == '_' || r == '-') {
			break
		}
		p.pos += n
	}
	key := string(p.src[start:p.pos])
	switch {
	case key == "":
		if p.peek() == '\'' {
			return "", p.errorAt(p.pos, "expected a key, found %s", p.describe())
		}
		return "", p.errorAt(p.pos, "expected a key, found %s", p.describe())
	case first:
		return "", p.errorAt(p.pos, "key %q: a key part must start with a letter", key)
	case key == "import":
		return "", p.errorAt(start, "import is a reserved word, not a key (import \"file\")")
	}
	return key, nil
}

func validKey(key string) error {
	p := &parser{name: "key", src: []byte(key)}
	k, err := p.ident()
	if err != nil {
		return fmt.Errorf("invalid key %q: %s", key, err.(*SyntaxError).Msg)
	}
	if k != key {
		return fmt.Errorf("invalid key %q: a key is letters, digits, _, - and dots", key)
	}
	return nil
}

func (p *parser) value() (Value, error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxDepth {
		return Value{}, p.errorAt(p.pos, "nesting deeper than %d", maxDepth)
	}
	for _, w := range []struct {
		s string
		b bool
	}{{"on", true}, {"off", false}, {"true", true}, {"false", false}} {
		if p.hasPrefix(w.s) {
			p.pos += len(w.s)
			return Bool(w.b), nil
		}
	}
	switch c := p.peek(); {
	case c == '"':
		s, err := p.str()
		return Template(s), err
	case c == '\'':
		return Value{}, p.errorAt(p.pos, "strings need double quotes, not single quotes")
	case c == '[':
		return p.list()
	case c == '+' || c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	}
	return Value{}, p.errorAt(p.pos, "expected a value (\"string\", number, true/false/on/off or [list]), found %s", p.describe())
}

func (p *parser) number() (Value, error) {
	start := p.pos
	if c := p.peek(); c == '+' || c == '-' {
		p.pos++
	}
	if p.digits() == 0 {
		return Value{}, p.errorAt(start, "malformed number")
	}
	if p.peek() == '.' && p.pos+1 < len(p.src) && isDigit(p.src[p.pos+1]) {
		p.pos++
		p.digits()
	}
	if c := p.peek(); c == 'e' || c == 'E' {
		save := p.pos
		p.pos++
		if c := p.peek(); c == '+' || c == '-' {
			p.pos++
		}
		if p.digits() == 0 {
			p.pos = save
		}
	}
	return Value{kind: KindNumber, text: string(p.src[start:p.pos])}, nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func (p *parser) digits() int {
	n := 0
	for !p.eof() && isDigit(p.peek()) {
		p.pos++
		n++
	}
	return n
}

func (p *parser) list() (Value, error) {
	p.pos++ // [
	p.skipLWS()
	v := Value{kind: KindList}
	if p.peek() == ']' {
		p.pos++
		return v, nil
	}
	for {
		x, err := p.value()
		if err != nil {
			return Value{}, err
		}
		v.list = append(v.list, x)
		p.skipLWS()
		switch p.peek() {
		case ',':
			p.pos++
			p.skipLWS()
		case ']':
			p.pos++
			return v, nil
		default:
			return Value{}, p.errorAt(p.pos, "expected , or ] in list, found %s", p.describe())
		}
	}
}

// str reads a double-quoted string and processes its escapes.
func (p *parser) str() (string, error) {
	start := p.pos
	p.pos++ // "
	var b strings.Builder
	for {
		if p.eof() {
			return "", p.errorAt(start, "unterminated string")
		}
		c := p.peek()
		switch c {
		case '"':
			p.pos++
			return b.String(), nil
		case '\\':
			esc := p.pos
			p.pos++
			if p.eof() {
				return "", p.errorAt(start, "unterminated string")
			}
			switch e := p.peek(); e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case '"', '\\':
				b.WriteByte(e)
			case 'u':
				p.pos++
				r, err := p.hexQuad(esc)
				if err != nil {
					return "", err
				}
				b.WriteRune(r)
				continue
			default:
				return "", p.errorAt(esc, "invalid escape \\%s in string (allowed: \\n \\t \\r \\\" \\\\ \\uXXXX)", p.describe())
			}
			p.pos++
		default:
			b.WriteByte(c)
			p.pos++
		}
	}
}

// hexQuad reads the XXXX of \uXXXX (p.pos after the u), combining a UTF-16
// surrogate pair written as two escapes.
func (p *parser) hexQuad(esc int) (rune, error) {
	read := func() (rune, bool) {
		if p.pos+4 > len(p.src) {
			return 0, false
		}
		n, err := strconv.ParseUint(string(p.src[p.pos:p.pos+4]), 16, 32)
		if err != nil {
			return 0, false
		}
		p.pos += 4
		return rune(n), true
	}
	a, ok := read()
	if !ok {
		return 0, p.errorAt(esc, "\\u needs four hex digits")
	}
	if a < 0xd800 || a > 0xdfff {
		return a, nil
	}
	if a <= 0xdbff && p.hasPrefix(`\u`) {
		p.pos += 2
		if b, ok := read(); ok && b >= 0xdc00 && b <= 0xdfff {
			return (a-0xd800)<<10 + (b - 0xdc00) + 0x10000, nil
		}
	}
	return 0, p.errorAt(esc, "invalid UTF-16 surrogates in \\u escape")
}
