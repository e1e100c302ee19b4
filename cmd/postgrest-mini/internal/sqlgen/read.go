package sqlgen

import (
	"strconv"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/cmd/postgrest-mini/internal/query"
	"github.com/pgrst-lab/pgrst-lab/cmd/postgrest-mini/internal/schema"
)

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// wrap aggregates the rows of inner into the response: row count, total
// (an int8 expression) and JSON array.
func wrap(inner, total string) string {
	return "SELECT pg_catalog.count(*)::int8, " + total + ", coalesce(pg_catalog.json_agg(_pgrst_t), '[]')::text FROM (" + inner + ") _pgrst_t"
}

const noTotal = "NULL::int8"

// total renders the exact count of the root rows before order, limit and
// offset (Prefer: count=exact), or NULL when not asked for. PostgreSQL drops
// the unused select-list columns (embeds) of the counted subquery.
func (b *builder) total(n node) (string, error) {
	if !b.req.ExactCount {
		return noTotal, nil
	}
	if saved := b.req.Nodes[""]; saved != nil {
		b.req.Nodes[""] = &query.Node{Filters: saved.Filters}
		defer func() { b.req.Nodes[""] = saved }()
	}
	inner, err := b.sql(n)
	if err != nil {
		return "", err
	}
	return "(SELECT pg_catalog.count(*) FROM (" + inner + ") _pgrst_c)::int8", nil
}

// Read is GET /table: a JSON array of the selected rows and embeds.
func Read(c *schema.Cache, t *schema.Table, req *query.Request) (Statement, error) {
	b := newBuilder(c, req)
	n := node{table: t, from: ident(t.Schema, t.Name), alias: t.Name, items: req.Select}
	return b.rows(n)
}

// rows renders a node read like a table: the JSON array of its rows and
// embeds, with the total count when the request asks for one.
func (b *builder) rows(n node) (Statement, error) {
	inner, err := b.sql(n)
	if err == nil {
		err = b.checkPaths()
	}
	if err != nil {
		return Statement{}, err
	}
	total, err := b.total(n)
	if err != nil {
		return Statement{}, err
	}
	return Statement{SQL: wrap(inner, total), Args: b.args}, nil
}

// Arg is one named function argument; Value nil is SQL NULL.
type Arg struct {
	Name  string
	Value any
}

// call renders schema.fn(name := $n, ...).
func (b *builder) call(f *schema.Function, args []Arg) string {
	var sb strings.Builder
	sb.WriteString(ident(f.Schema, f.Name))
	sb.WriteByte('(')
	for i, a := range args {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(ident(a.Name) + " := " + b.param(a.Value))
	}
	sb.WriteByte(')')
	return sb.String()
}

// Call is /rpc/fn. A set-returning function of rows is read like a table
// (select, filters, embeds when it returns a table's row type); a set of
// scalars gives a JSON array of values; anything else gives the JSON value.
func Call(c *schema.Cache, f *schema.Function, args []Arg, req *query.Request) (Statement, error) {
	b := newBuilder(c, req)
	call := b.call(f, args)
	switch {
	case f.RetSet && f.Composite:
		n := node{table: f.RetTable, from: call, alias: f.Name, items: req.Select}
		return b.rows(n)
	case f.RetSet:
		n := node{from: call, alias: f.Name, items: []query.Item{{Kind: query.Column, Name: f.Name, Alias: "v"}}}
		inner, err := b.sql(n)
		if err != nil {
			return Statement{}, err
		}
		return Statement{SQL: "SELECT pg_catalog.count(*)::int8, NULL::int8, coalesce(pg_catalog.json_agg(_pgrst_t.v), '[]')::text FROM (" + inner + ") _pgrst_t", Args: b.args}, nil
	default:
		return Statement{SQL: "SELECT 1::int8, NULL::int8, pg_catalog.to_json(" + call + ")::text", Args: b.args}, nil
	}
}
