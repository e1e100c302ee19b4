package query

import (
	"strings"
	"unicode/utf8"

	"github.com/pgrst-lab/pgrst-lab/cmd/postgrest-mini/internal/apierr"
)

// Op is a filter operator.
type Op string

// The operators postgrest-mini implements.
const (
	Eq    Op = "eq"
	Neq   Op = "neq"
	Gt    Op = "gt"
	Gte   Op = "gte"
	Lt    Op = "lt"
	Lte   Op = "lte"
	Like  Op = "like"
	Ilike Op = "ilike"
	In    Op = "in"
	Is    Op = "is"
)

var ops = map[string]Op{"eq": Eq, "neq": Neq, "gt": Gt, "gte": Gte, "lt": Lt, "lte": Lte,
	"like": Like, "ilike": Ilike, "in": In, "is": Is}

// Filter is one horizontal filter "column=[not.]op.value".
type Filter struct {
	Column string
	Not    bool
	Op     Op
	Value  string   // eq..ilike; like/ilike with '*' already turned into '%'
	List   []string // in
	IsVal  string   // is: "null", "not_null", "true", "false", "unknown"
}

// ParseFilter parses the value part of a filter on column.
func ParseFilter(column, v string) (Filter, error) {
	fail := func(d string) (Filter, error) {
		return Filter{}, apierr.ParseError("failed to parse filter ("+v+")", d)
	}
	if !utf8.ValidString(v) {
		return fail("invalid UTF-8")
	}
	f := Filter{Column: column}
	rest := v
	if strings.HasPrefix(rest, "not.") {
		f.Not = true
		rest = rest[4:]
	}
	dot := strings.IndexByte(rest, '.')
	if dot < 0 {
		return fail("expecting an operator followed by \".\" (e.g. eq.1)")
	}
	op, ok := ops[rest[:dot]]
	if !ok {
		return fail("unknown operator \"" + rest[:dot] + "\"")
	}
	f.Op = op
	val := rest[dot+1:]
	switch op {
	case In:
		list, err := parseList(val)
		if err != nil {
			return fail(err.Error())
		}
		f.List = list
	case Is:
		switch strings.ToLower(val) {
		case "null", "not_null", "true", "false", "unknown":
			f.IsVal = strings.ToLower(val)
		default:
			return fail("is expects null, not_null, true, false or unknown")
		}
	case Like, Ilike:
		f.Value = strings.ReplaceAll(val, "*", "%")
	default:
		f.Value = val
	}
	return f, nil
}

type listErr string

func (e listErr) Error() string { return string(e) }

// parseList parses "(a,b,\"c,d\")"; quoted items may escape with backslash.
func parseList(s string) ([]string, error) {
	if len(s) < 2 || s[0] != '(' || s[len(s)-1] != ')' {
		return nil, listErr("in expects a list in parentheses, e.g. in.(1,2,3)")
	}
	s = s[1 : len(s)-1]
	if strings.TrimSpace(s) == "" {
		return []string{}, nil
	}
	var out []string
	for i := 0; i <= len(s); {
		for i < len(s) && s[i] == ' ' {
			i++
		}
		var b strings.Builder
		if i < len(s) && s[i] == '"' {
			i++
			closed := false
			for i < len(s) {
				c := s[i]
				i++
				if c == '\\' && i < len(s) {
					b.WriteByte(s[i])
					i++
					continue
				}
				if c == '"' {
					closed = true
					break
				}
				b.WriteByte(c)
			}
			if !closed {
				return nil, listErr("unterminated quoted value in list")
			}
			for i < len(s) && s[i] == ' ' {
				i++
			}
			if i < len(s) && s[i] != ',' {
				return nil, listErr("expecting \",\" after quoted value")
			}
		} else {
			j := strings.IndexByte(s[i:], ',')
			if j < 0 {
				j = len(s) - i
			}
			b.WriteString(strings.TrimSpace(s[i : i+j]))
			i += j
		}
		out = append(out, b.String())
		i++ // skip ','
	}
	return out, nil
}
