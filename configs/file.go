package configs

import (
	"bytes"
	"fmt"
	"os"
	"unicode/utf8"
)

// File is a parsed PostgREST config file. It keeps the source bytes, so
// Bytes returns them unchanged until Set or Delete edits them, and an edit
// touches only the value or the lines concerned.
type File struct {
	Name  string
	src   []byte
	items []item
}

// Parse parses a config file in configurator-pg syntax. name is used in
// error messages. Errors are *SyntaxError ("file:line:col: msg").
func Parse(name string, src []byte) (*File, error) {
	src = bytes.Clone(src)
	p := &parser{name: name, src: src}
	if !utf8.Valid(src) {
		i := 0
		for i < len(src) {
			r, n := utf8.DecodeRune(src[i:])
			if r == utf8.RuneError && n == 1 {
				break
			}
			i += n
		}
		return nil, p.errorAt(i, "file is not valid UTF-8")
	}
	if err := p.directives("", false, false); err != nil {
		return nil, err
	}
	return &File{Name: name, src: src, items: p.items}, nil
}

// ParseFile reads and parses a config file.
func ParseFile(path string) (*File, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	return Parse(path, src)
}

// Bytes returns the file's current text.
func (f *File) Bytes() []byte { return bytes.Clone(f.src) }

// last returns the index of the binding of key that takes effect in this
// file (the last one), or -1.
func (f *File) last(key string) int {
	for i := len(f.items) - 1; i >= 0; i-- {
		it := f.items[i]
		if !it.isImport && !it.ignored && it.key == key {
			return i
		}
	}
	return -1
}

// Get returns the value bound to key in this file (imports are not
// followed; use Load for what PostgREST sees).
func (f *File) Get(key string) (Value, bool) {
	if i := f.last(key); i >= 0 {
		return f.items[i].val, true
	}
	return Value{}, false
}

// Keys lists the keys bound in this file, in order of first appearance.
func (f *File) Keys() []string {
	seen := map[string]bool{}
	var keys []string
	for _, it := range f.items {
		if !it.isImport && !it.ignored && !seen[it.key] {
			seen[it.key] = true
			keys = append(keys, it.key)
		}
	}
	return keys
}

// Imports lists the paths of the file's import directives, as written.
func (f *File) Imports() []string {
	var out []string
	for _, it := range f.items {
		if it.isImport && !it.ignored {
			out = append(out, it.key)
		}
	}
	return out
}

// Set binds key to v. If the key is bound, only the bytes of its effective
// (last) value are replaced; otherwise, or when an import follows that
// binding (the imported file might bind the key again), "key = value" is
// appended on a new line, after every import, so it takes effect. The value
// is rendered escaped, so it can never add another key.
func (f *File) Set(key string, v Value) error {
	if err := validKey(key); err != nil {
		return err
	}
	if err := v.check(); err != nil {
		return fmt.Errorf("set %s: %w", key, err)
	}
	var next []byte
	if i := f.last(key); i >= 0 && !f.importAfter(i) {
		it := f.items[i]
		next = make([]byte, 0, len(f.src)+16)
		next = append(next, f.src[:it.valStart]...)
		next = append(next, v.Render()...)
		next = append(next, f.src[it.end:]...)
	} else {
		nl := "\n"
		if bytes.Contains(f.src, []byte("\r\n")) {
			nl = "\r\n"
		}
		next = bytes.Clone(f.src)
		if len(next) > 0 && next[len(next)-1] != '\n' && next[len(next)-1] != '\r' {
			next = append(next, nl...)
		}
		next = append(next, key+" = "+v.Render()+nl...)
	}
	return f.reparse(next, key)
}

// importAfter reports whether an import directive follows item i.
func (f *File) importAfter(i int) bool {
	for _, it := range f.items[i+1:] {
		if it.isImport && !it.ignored {
			return true
		}
	}
	return false
}

// Delete removes every binding of key from the file: the whole line(s) when
// the binding is alone on them, else just the binding's bytes.
func (f *File) Delete(key string) {
	for {
		i := f.last(key)
		if i < 0 {
			return
		}
		from, to := f.lineSpan(f.items[i])
		next := append(bytes.Clone(f.src[:from]), f.src[to:]...)
		if err := f.reparse(next, key); err != nil {
			// Cannot happen for a well-formed file; keep the file unchanged.
			return
		}
	}
}

// lineSpan is the byte range to delete for a binding: its full lines
// (including a trailing comment and the newline) if nothing else shares
// them, else the directive alone.
func (f *File) lineSpan(it item) (int, int) {
	from := it.start
	for from > 0 && (f.src[from-1] == ' ' || f.src[from-1] == '\t') {
		from--
	}
	to := it.end
	for to < len(f.src) && (f.src[to] == ' ' || f.src[to] == '\t') {
		to++
	}
	if to < len(f.src) && f.src[to] == '#' {
		for to < len(f.src) && f.src[to] != '\n' && f.src[to] != '\r' {
			to++
		}
	}
	lineStart := from == 0 || f.src[from-1] == '\n' || f.src[from-1] == '\r'
	lineEnd := to == len(f.src) || f.src[to] == '\n' || f.src[to] == '\r'
	if !lineStart || !lineEnd {
		return it.start, it.end
	}
	if bytes.HasPrefix(f.src[to:], []byte("\r\n")) {
		to += 2
	} else if to < len(f.src) {
		to++
	}
	return from, to
}

func (f *File) reparse(next []byte, key string) error {
	g, err := Parse(f.Name, next)
	if err != nil {
		return fmt.Errorf("edit of %s would break the file: %w", key, err)
	}
	f.src, f.items = g.src, g.items
	return nil
}

// Canonical renders the file's effective bindings, one "key = value" line
// each in order of first appearance (imports and comments dropped).
func (f *File) Canonical() []byte {
	var b bytes.Buffer
	for _, it := range f.items {
		if it.isImport && !it.ignored {
			b.WriteString("import " + quote(it.key) + "\n")
		}
	}
	for _, k := range f.Keys() {
		v, _ := f.Get(k)
		b.WriteString(k + " = " + v.Render() + "\n")
	}
	return b.Bytes()
}
