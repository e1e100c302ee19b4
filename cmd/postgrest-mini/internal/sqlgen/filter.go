package sqlgen

import (
	"strings"

	"github.com/pgrst-lab/pgrst-lab/cmd/postgrest-mini/internal/query"
)

var cmpOps = map[query.Op]string{query.Eq: "=", query.Neq: "<>", query.Gt: ">", query.Gte: ">=",
	query.Lt: "<", query.Lte: "<=", query.Like: "LIKE", query.Ilike: "ILIKE"}

// filter renders one condition on alias.column; the value is a parameter.
func (b *builder) filter(alias string, f query.Filter) string {
	c := col(alias, f.Column)
	var cond string
	switch f.Op {
	case query.In:
		cond = c + " = ANY(" + b.param(pgArray(f.List)) + ")"
	case query.Is:
		switch f.IsVal {
		case "null":
			cond = c + " IS NULL"
		case "not_null":
			cond = c + " IS NOT NULL"
		case "true":
			cond = c + " IS TRUE"
		case "false":
			cond = c + " IS FALSE"
		default:
			cond = c + " IS UNKNOWN"
		}
	default:
		cond = c + " " + cmpOps[f.Op] + " " + b.param(f.Value)
	}
	if f.Not {
		return "NOT (" + cond + ")"
	}
	return cond
}

// pgArray renders a PostgreSQL array literal with every element quoted.
func pgArray(xs []string) string {
	var sb strings.Builder
	sb.WriteByte('{')
	for i, x := range xs {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteByte('"')
		for _, r := range x {
			if r == '"' || r == '\\' {
				sb.WriteByte('\\')
			}
			sb.WriteRune(r)
		}
		sb.WriteByte('"')
	}
	sb.WriteByte('}')
	return sb.String()
}

func (b *builder) orderLimit(sb *strings.Builder, alias string, n *query.Node) {
	if len(n.Order) > 0 {
		sb.WriteString(" ORDER BY ")
		for i, t := range n.Order {
			if i > 0 {
				sb.WriteString(", ")
			}
			sb.WriteString(col(alias, t.Column))
			if t.Desc {
				sb.WriteString(" DESC")
			} else {
				sb.WriteString(" ASC")
			}
			switch t.Nulls {
			case "first":
				sb.WriteString(" NULLS FIRST")
			case "last":
				sb.WriteString(" NULLS LAST")
			}
		}
	}
	if n.Limit != nil {
		sb.WriteString(" LIMIT " + b.param(itoa(*n.Limit)))
	}
	if n.Offset != nil {
		sb.WriteString(" OFFSET " + b.param(itoa(*n.Offset)))
	}
}
