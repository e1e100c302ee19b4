package query

import (
	"strings"
	"unicode/utf8"

	"github.com/pgrst-lab/pgrst-lab/cmd/postgrest-mini/internal/apierr"
)

// Kind of a select item.
type Kind int

const (
	Star   Kind = iota // *
	Column             // name, alias:name, name::cast
	Embed              // name(...), alias:name!hint(...)
)

// Item is one entry of a select list.
type Item struct {
	Kind     Kind
	Name     string // column or embedded relation
	Alias    string // "" = none
	Cast     string // Column only, "" = none
	Hint     string // Embed only: foreign key or column name after '!'
	Inner    bool   // Embed only: !inner (rows without a match are dropped)
	Children []Item // Embed only
}

// Label is the JSON key the item produces.
func (it Item) Label() string {
	if it.Alias != "" {
		return it.Alias
	}
	return it.Name
}

const maxDepth = 16

// ParseSelect parses a select parameter such as "*,track(*,genre(name))".
func ParseSelect(s string) ([]Item, error) {
	if !utf8.ValidString(s) {
		return nil, selectErr(s, "invalid UTF-8")
	}
	p := &selParser{s: s}
	items, err := p.list(0)
	if err != nil {
		return nil, err
	}
	if p.i != len(p.s) {
		return nil, selectErr(s, "unexpected \""+string(p.s[p.i])+"\" at position "+itoa(p.i+1))
	}
	return items, nil
}

type selParser struct {
	s string
	i int
}

func selectErr(s, details string) error {
	return apierr.ParseError("failed to parse select parameter ("+s+")", details)
}

func (p *selParser) fail(msg string) error { return selectErr(p.s, msg+" at position "+itoa(p.i+1)) }

func (p *selParser) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *selParser) spaces() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\n' || p.s[p.i] == '\r') {
		p.i++
	}
}

func (p *selParser) list(depth int) ([]Item, error) {
	if depth > maxDepth {
		return nil, p.fail("embedding too deep")
	}
	var items []Item
	for {
		p.spaces()
		it, err := p.item(depth)
		if err != nil {
			return nil, err
		}
		items = append(items, it)
		p.spaces()
		if p.peek() != ',' {
			return items, nil
		}
		p.i++
	}
}

func (p *selParser) item(depth int) (Item, error) {
	if p.peek() == '*' {
		p.i++
		return Item{Kind: Star}, nil
	}
	name, err := p.name()
	if err != nil {
		return Item{}, err
	}
	it := Item{Kind: Column, Name: name}
	if p.peek() == ':' && !strings.HasPrefix(p.s[p.i:], "::") {
		p.i++
		if it.Name, err = p.name(); err != nil {
			return Item{}, err
		}
		it.Alias = name
	}
	for p.peek() == '!' {
		p.i++
		h, err := p.name()
		if err != nil {
			return Item{}, err
		}
		switch h {
		case "inner":
			it.Inner = true
		case "left":
		default:
			it.Hint = h
		}
	}
	switch {
	case p.peek() == '(':
		p.i++
		it.Kind = Embed
		p.spaces()
		if p.peek() == ')' { // name() selects nothing from the embed
			p.i++
			return it, nil
		}
		if it.Children, err = p.list(depth + 1); err != nil {
			return Item{}, err
		}
		if p.peek() != ')' {
			return Item{}, p.fail("expecting \")\"")
		}
		p.i++
	case it.Hint != "" || it.Inner:
		return Item{}, p.fail("expecting \"(\" after embed hint")
	case strings.HasPrefix(p.s[p.i:], "::"):
		p.i += 2
		c, err := p.castType()
		if err != nil {
			return Item{}, err
		}
		it.Cast = c
	case strings.HasPrefix(p.s[p.i:], "->"):
		return Item{}, p.fail("JSON paths are not supported by postgrest-mini")
	}
	return it, nil
}

// name reads a plain or double-quoted identifier.
func (p *selParser) name() (string, error) {
	if p.peek() == '"' {
		p.i++
		var b strings.Builder
		for p.i < len(p.s) {
			c := p.s[p.i]
			p.i++
			if c == '"' {
				if b.Len() == 0 {
					return "", p.fail("empty quoted name")
				}
				return b.String(), nil
			}
			if c == 0 {
				return "", p.fail("NUL in name")
			}
			b.WriteByte(c)
		}
		return "", p.fail("unterminated quoted name")
	}
	start := p.i
	for p.i < len(p.s) {
		r, n := utf8.DecodeRuneInString(p.s[p.i:])
		if !nameRune(r) {
			break
		}
		p.i += n
	}
	if p.i == start {
		return "", p.fail("expecting a column or relation name")
	}
	return p.s[start:p.i], nil
}

// castType reads a type name for ::cast: letters, digits, '_' and spaces
// inside (e.g. "double precision"), nothing that could escape into SQL.
func (p *selParser) castType() (string, error) {
	start := p.i
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == ' ' {
			p.i++
			continue
		}
		break
	}
	t := strings.TrimSpace(p.s[start:p.i])
	if t == "" || t[0] >= '0' && t[0] <= '9' {
		return "", p.fail("expecting a type name after \"::\"")
	}
	return t, nil
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b [20]byte
	n := len(b)
	for i > 0 {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
	}
	return string(b[n:])
}
