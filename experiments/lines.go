package experiments

import (
	"strconv"
	"strings"
)

// lineIndex maps the path of every key, table header and array element of
// a TOML document to the line it is written on. Paths use the TOML names;
// the n-th table of an array of tables ([[variant]]) and the n-th element
// of an array are the segment "variant[n]" (counting from 0), as in
// lab.FieldError.
//
// BurntSushi/toml knows key positions but keeps them private, and it keys
// them without array indices, so the index is built by a small scanner. It
// runs only on documents the TOML parser accepted: it need not report
// syntax errors, only not get lost.
type lineIndex map[string]int

func pathKey(path []string) string { return strings.Join(path, "\x00") }

// line returns the line of path or, if the path is not written in the
// file (a missing key), of its nearest written ancestor; 0 if none is.
func (ix lineIndex) line(path []string) int {
	for n := len(path); n > 0; n-- {
		if l, ok := ix[pathKey(path[:n])]; ok {
			return l
		}
	}
	return 0
}

func indexLines(src []byte) lineIndex {
	s := &scanner{src: src, line: 1, ix: lineIndex{}, arrays: map[string]int{}}
	s.document()
	return s.ix
}

type scanner struct {
	src    []byte
	pos    int
	line   int
	ix     lineIndex
	arrays map[string]int // array-of-tables path -> tables seen so far
}

func (s *scanner) eof() bool { return s.pos >= len(s.src) }

func (s *scanner) peek() byte {
	if s.eof() {
		return 0
	}
	return s.src[s.pos]
}

func (s *scanner) next() byte {
	c := s.src[s.pos]
	s.pos++
	if c == '\n' {
		s.line++
	}
	return c
}

func (s *scanner) has(p string) bool { return strings.HasPrefix(string(s.src[s.pos:]), p) }

func (s *scanner) record(path []string, line int) {
	k := pathKey(path)
	if _, ok := s.ix[k]; !ok {
		s.ix[k] = line
	}
}

// skipSpace skips blanks and, if newlines is set, newlines and comments.
func (s *scanner) skipSpace(newlines bool) {
	for !s.eof() {
		switch c := s.peek(); {
		case c == ' ' || c == '\t' || c == '\r':
			s.next()
		case newlines && c == '\n':
			s.next()
		case newlines && c == '#':
			s.skipLine()
		default:
			return
		}
	}
}

func (s *scanner) skipLine() {
	for !s.eof() && s.peek() != '\n' {
		s.next()
	}
}

func (s *scanner) document() {
	var table []string
	for {
		s.skipSpace(true)
		if s.eof() {
			return
		}
		line := s.line
		if s.peek() == '[' {
			s.next()
			array := s.peek() == '['
			if array {
				s.next()
			}
			key := s.key()
			table = s.resolve(key, array)
			s.record(table, line)
			if array && len(key) > 0 { // the array itself: at its first table
				s.record(append(clone(table[:len(table)-1]), key[len(key)-1]), line)
			}
			s.skipLine()
			continue
		}
		k := s.key()
		if len(k) == 0 {
			s.skipLine() // cannot happen in valid TOML; do not get stuck
			continue
		}
		path := append(append([]string(nil), table...), k...)
		for n := len(table) + 1; n <= len(path); n++ {
			s.record(path[:n], line)
		}
		s.skipSpace(false)
		if s.peek() == '=' {
			s.next()
			s.skipSpace(false)
			s.value(path)
		}
		s.skipLine()
	}
}

// resolve turns a table header's key into a path, giving each array of
// tables the index of its latest table; for an [[array]] header, a new one.
func (s *scanner) resolve(key []string, array bool) []string {
	path := make([]string, 0, len(key))
	for i, k := range key {
		path = append(path, k)
		pk := pathKey(path)
		if array && i == len(key)-1 {
			n := s.arrays[pk]
			s.arrays[pk] = n + 1
			path[i] = k + "[" + strconv.Itoa(n) + "]"
		} else if n, ok := s.arrays[pk]; ok {
			path[i] = k + "[" + strconv.Itoa(n-1) + "]"
		}
	}
	return path
}

// key reads a dotted key: bare, "basic" or 'literal' parts.
func (s *scanner) key() []string {
	var parts []string
	for {
		s.skipSpace(false)
		switch c := s.peek(); {
		case c == '"' || c == '\'':
			parts = append(parts, s.str())
		case isBare(c):
			start := s.pos
			for !s.eof() && isBare(s.peek()) {
				s.next()
			}
			parts = append(parts, string(s.src[start:s.pos]))
		default:
			return parts
		}
		s.skipSpace(false)
		if s.peek() != '.' {
			return parts
		}
		s.next()
	}
}

func isBare(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// str reads a string of any of the four kinds and returns its text (escapes
// of basic strings resolved as far as Go's rules agree with TOML's).
func (s *scanner) str() string {
	q := s.next()
	multi := s.has(string([]byte{q, q}))
	if multi {
		s.next()
		s.next()
	}
	start := s.pos
	for !s.eof() {
		c := s.peek()
		if q == '"' && c == '\\' {
			s.next()
			if !s.eof() {
				s.next()
			}
			continue
		}
		if c == q && (!multi || s.has(string([]byte{q, q, q}))) {
			raw := string(s.src[start:s.pos])
			s.next()
			if multi {
				s.next()
				s.next()
				for s.peek() == q { // up to two quotes may end the content
					s.next()
				}
			}
			if q == '"' && !multi {
				if u, err := strconv.Unquote(`"` + raw + `"`); err == nil {
					return u
				}
			}
			return raw
		}
		if c == '\n' && !multi {
			break
		}
		s.next()
	}
	return string(s.src[start:s.pos])
}

// value skips a value, recording the elements of arrays and the keys of
// inline tables under path.
func (s *scanner) value(path []string) {
	switch c := s.peek(); {
	case c == '"' || c == '\'':
		s.str()
	case c == '[':
		s.next()
		last := path[len(path)-1]
		for i := 0; ; i++ {
			s.skipSpace(true)
			if s.eof() || s.peek() == ']' {
				break
			}
			el := append(append([]string(nil), path[:len(path)-1]...), last+"["+strconv.Itoa(i)+"]")
			s.record(el, s.line)
			s.value(el)
			s.skipSpace(true)
			if s.peek() != ',' {
				break
			}
			s.next()
		}
		if s.peek() == ']' {
			s.next()
		}
	case c == '{':
		s.next()
		for {
			s.skipSpace(true)
			if s.eof() || s.peek() == '}' {
				break
			}
			line := s.line
			k := s.key()
			if len(k) == 0 {
				break
			}
			p := append(append([]string(nil), path...), k...)
			for n := len(path) + 1; n <= len(p); n++ {
				s.record(p[:n], line)
			}
			s.skipSpace(false)
			if s.peek() == '=' {
				s.next()
				s.skipSpace(false)
				s.value(p)
			}
			s.skipSpace(true)
			if s.peek() != ',' {
				break
			}
			s.next()
		}
		if s.peek() == '}' {
			s.next()
		}
	default: // number, boolean, date: up to a delimiter
		for !s.eof() {
			switch s.peek() {
			case ',', ']', '}', '\n', '#':
				return
			}
			s.next()
		}
	}
}
