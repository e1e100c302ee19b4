package sqlgen

import (
	"strings"

	"github.com/pgrst-lab/pgrst-lab/cmd/postgrest-mini/internal/query"
	"github.com/pgrst-lab/pgrst-lab/cmd/postgrest-mini/internal/schema"
)

// Insert is POST /table. body is a JSON array of objects; cols are the
// columns to fill from it (json_populate_recordset ignores other keys). With
// representation the rows are returned like Read, else the body is empty.
func Insert(c *schema.Cache, t *schema.Table, cols []string, body string, representation bool, req *query.Request) (Statement, error) {
	b := newBuilder(c, req)
	var sb strings.Builder
	sb.WriteString("WITH pgrst_source AS (INSERT INTO " + ident(t.Schema, t.Name) + " AS " + ident(t.Name))
	quoted := make([]string, len(cols))
	for i, c := range cols {
		quoted[i] = ident(c)
	}
	if len(cols) > 0 {
		sb.WriteString(" (" + strings.Join(quoted, ", ") + ")")
	}
	sb.WriteString(" SELECT " + strings.Join(quoted, ", ") + " FROM pg_catalog.json_populate_recordset(NULL::" + ident(t.Schema, t.Name) + ", " + b.param(body) + ") _")
	return b.finishWrite(&sb, t, representation)
}

// Update is PATCH /table?filters: body is one JSON object, cols the keys
// to set from it. With no columns nothing is updated.
func Update(c *schema.Cache, t *schema.Table, cols []string, body string, representation bool, req *query.Request) (Statement, error) {
	b := newBuilder(c, req)
	if len(cols) == 0 {
		return Statement{SQL: "SELECT 0::int8, NULL::int8, '[]'::text"}, nil
	}
	var sb strings.Builder
	sb.WriteString("WITH pgrst_source AS (UPDATE " + ident(t.Schema, t.Name) + " AS " + ident(t.Name) + " SET ")
	for i, c := range cols {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(ident(c) + " = _pgrst_body." + ident(c))
	}
	sb.WriteString(" FROM pg_catalog.json_populate_record(NULL::" + ident(t.Schema, t.Name) + ", " + b.param(body) + ") AS _pgrst_body")
	b.where(&sb, t)
	return b.finishWrite(&sb, t, representation)
}

// where renders the root filters of a write on table t.
func (b *builder) where(sb *strings.Builder, t *schema.Table) {
	n := b.req.Node("")
	if n == nil || len(n.Filters) == 0 {
		return
	}
	conds := make([]string, len(n.Filters))
	for i, f := range n.Filters {
		conds[i] = b.filter(t.Name, f)
	}
	sb.WriteString(" WHERE " + joinAnd(conds))
}

// Delete is DELETE /table?filters.
func Delete(c *schema.Cache, t *schema.Table, representation bool, req *query.Request) (Statement, error) {
	b := newBuilder(c, req)
	var sb strings.Builder
	sb.WriteString("WITH pgrst_source AS (DELETE FROM " + ident(t.Schema, t.Name) + " AS " + ident(t.Name))
	b.where(&sb, t)
	return b.finishWrite(&sb, t, representation)
}

func (b *builder) finishWrite(sb *strings.Builder, t *schema.Table, representation bool) (Statement, error) {
	if !representation {
		sb.WriteString(" RETURNING 1) SELECT pg_catalog.count(*)::int8, NULL::int8, ''::text FROM pgrst_source")
		return Statement{SQL: sb.String(), Args: b.args}, nil
	}
	sb.WriteString(" RETURNING " + ident(t.Name) + ".*) ")
	// filters, order and paging of the query string are not applied to the
	// written rows (PostgREST applies select and embeds only).
	saved := b.req
	b.req = &query.Request{Select: saved.Select, Nodes: map[string]*query.Node{}}
	inner, err := b.sql(node{table: t, from: "pgrst_source", alias: t.Name, items: saved.Select})
	b.req = saved
	if err != nil {
		return Statement{}, err
	}
	sb.WriteString(wrap(inner, noTotal))
	return Statement{SQL: sb.String(), Args: b.args}, nil
}
