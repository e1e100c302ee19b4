package query

import (
	"strconv"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/cmd/postgrest-mini/internal/apierr"
)

// Request is a parsed query string.
type Request struct {
	Select  []Item            // nil means "*"
	Nodes   map[string]*Node  // per embed path ("" = root, "track", "track.genre")
	Columns []string          // ?columns= (insert), nil when absent
	Args    map[string]string // keys that were function arguments (see Parse)

	ExactCount bool // Prefer: count=exact (set by the caller, not the query string)
}

// Node holds the filters, order and paging for one resource in the tree.
type Node struct {
	Filters []Filter
	Order   []OrderTerm
	Limit   *int64
	Offset  *int64
}

// Node returns the options for an embed path, nil when none were given.
func (r *Request) Node(path string) *Node { return r.Nodes[path] }

// CapRows bounds the rows of the top level at n (PostgREST's
// db-max-rows): a smaller limit asked for stays.
func (r *Request) CapRows(n int64) {
	root := r.node("")
	if root.Limit == nil || *root.Limit > n {
		root.Limit = &n
	}
}

func (r *Request) node(path string) *Node {
	n := r.Nodes[path]
	if n == nil {
		n = &Node{}
		r.Nodes[path] = n
	}
	return n
}

// Param is one query-string pair, already percent-decoded.
type Param struct{ Key, Value string }

// Parse parses query-string pairs. isArg reports whether a key is an argument
// of the function being called (RPC); such keys go to Args instead of being
// read as filters. isArg may be nil.
func Parse(params []Param, isArg func(string) bool) (*Request, error) {
	r := &Request{Nodes: map[string]*Node{}}
	for _, p := range params {
		if err := r.add(p, isArg); err != nil {
			return nil, err
		}
	}
	return r, nil
}

func (r *Request) add(p Param, isArg func(string) bool) error {
	switch p.Key {
	case "select":
		items, err := ParseSelect(p.Value)
		if err != nil {
			return err
		}
		r.Select = items
		return nil
	case "columns":
		cols, err := parseColumns(p.Value)
		if err != nil {
			return err
		}
		r.Columns = cols
		return nil
	case "on_conflict", "":
		return nil
	}
	if isArg != nil && isArg(p.Key) {
		if r.Args == nil {
			r.Args = map[string]string{}
		}
		r.Args[p.Key] = p.Value
		return nil
	}
	path, last := splitPath(p.Key)
	switch last {
	case "order":
		terms, err := parseOrder(p.Value)
		if err != nil {
			return err
		}
		r.node(path).Order = terms
		return nil
	case "limit", "offset":
		n, err := strconv.ParseInt(p.Value, 10, 64)
		if err != nil || n < 0 {
			return apierr.ParseError("failed to parse "+last+" ("+p.Value+")", "expecting a non-negative integer")
		}
		if last == "limit" {
			r.node(path).Limit = &n
		} else {
			r.node(path).Offset = &n
		}
		return nil
	}
	if !validName(last) {
		return apierr.ParseError("failed to parse filter ("+p.Key+")", "unexpected character in column name")
	}
	f, err := ParseFilter(last, p.Value)
	if err != nil {
		return err
	}
	n := r.node(path)
	n.Filters = append(n.Filters, f)
	return nil
}

// splitPath splits "track.genre.name" into ("track.genre", "name").
func splitPath(key string) (string, string) {
	i := strings.LastIndexByte(key, '.')
	if i < 0 {
		return "", key
	}
	return key[:i], key[i+1:]
}

func parseColumns(s string) ([]string, error) {
	var cols []string
	for _, c := range strings.Split(s, ",") {
		c = strings.TrimSpace(c)
		c = strings.Trim(c, `"`)
		if !validName(c) {
			return nil, apierr.ParseError("failed to parse columns parameter ("+s+")", "expecting a comma-separated list of column names")
		}
		cols = append(cols, c)
	}
	return cols, nil
}

// validName accepts names PostgREST accepts unquoted: no structural characters.
func validName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !nameRune(c) {
			return false
		}
	}
	return true
}

func nameRune(c rune) bool {
	switch c {
	case '.', ',', ':', '(', ')', '!', '"', '*', '>', '-', ' ', '\t', '\n', '\r', 0:
		return false
	case 0xFFFD:
		return false // invalid UTF-8
	}
	return c >= 0x20
}
