package query

import (
	"strings"

	"github.com/pgrst-lab/pgrst-lab/cmd/postgrest-mini/internal/apierr"
)

// OrderTerm is one "column[.asc|.desc][.nullsfirst|.nullslast]".
type OrderTerm struct {
	Column string
	Desc   bool
	Nulls  string // "", "first", "last"
}

func parseOrder(s string) ([]OrderTerm, error) {
	var terms []OrderTerm
	for _, part := range strings.Split(s, ",") {
		fields := strings.Split(strings.TrimSpace(part), ".")
		t := OrderTerm{Column: strings.Trim(fields[0], `"`)}
		if !validName(t.Column) {
			return nil, apierr.ParseError("failed to parse order ("+s+")", "expecting a column name")
		}
		for _, m := range fields[1:] {
			switch m {
			case "asc":
				t.Desc = false
			case "desc":
				t.Desc = true
			case "nullsfirst":
				t.Nulls = "first"
			case "nullslast":
				t.Nulls = "last"
			default:
				return nil, apierr.ParseError("failed to parse order ("+s+")", "unexpected \""+m+"\" expecting asc, desc, nullsfirst or nullslast")
			}
		}
		terms = append(terms, t)
	}
	return terms, nil
}
