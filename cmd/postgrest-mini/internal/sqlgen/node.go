package sqlgen

import (
	"strings"

	"github.com/pgrst-lab/pgrst-lab/cmd/postgrest-mini/internal/apierr"
	"github.com/pgrst-lab/pgrst-lab/cmd/postgrest-mini/internal/query"
	"github.com/pgrst-lab/pgrst-lab/cmd/postgrest-mini/internal/schema"
)

// node is one resource of the response tree: a FROM item with its alias,
// its select items, and extra conditions (the join to its parent).
type node struct {
	table *schema.Table // nil for a set of anonymous rows (TABLE(...) functions)
	from  string        // SQL of the FROM item
	alias string
	items []query.Item
	path  string // embed path for per-node filters/order/limit
	conds []string
	join  string // extra FROM items (", junction AS alias") for many-to-many
}

// sql renders SELECT cols FROM from AS alias WHERE ... ORDER BY ... LIMIT ... OFFSET ...
func (b *builder) sql(n node) (string, error) {
	var sb strings.Builder
	sb.WriteString("SELECT ")
	saved := b.pending
	b.pending = nil
	if err := b.columns(&sb, n); err != nil {
		return "", err
	}
	inner := b.pending
	b.pending = saved
	sb.WriteString(" FROM ")
	sb.WriteString(n.from)
	sb.WriteString(" AS ")
	sb.WriteString(ident(n.alias))
	sb.WriteString(n.join)
	b.visited[n.path] = true
	opts := b.req.Node(n.path)
	conds := append(append([]string(nil), n.conds...), inner...)
	if opts != nil {
		for _, f := range opts.Filters {
			conds = append(conds, b.filter(n.alias, f))
		}
	}
	if len(conds) > 0 {
		sb.WriteString(" WHERE ")
		sb.WriteString(joinAnd(conds))
	}
	if opts != nil {
		b.orderLimit(&sb, n.alias, opts)
	}
	return sb.String(), nil
}

func (b *builder) columns(sb *strings.Builder, n node) error {
	items := n.items
	if len(items) == 0 {
		items = []query.Item{{Kind: query.Star}}
	}
	first := true
	sep := func() {
		if !first {
			sb.WriteString(", ")
		}
		first = false
	}
	for _, it := range items {
		switch it.Kind {
		case query.Star:
			sep()
			sb.WriteString(ident(n.alias) + ".*")
		case query.Column:
			sep()
			c := col(n.alias, it.Name)
			if it.Cast != "" {
				c = "CAST(" + c + " AS " + it.Cast + ")"
			}
			sb.WriteString(c)
			if it.Alias != "" || it.Cast != "" {
				sb.WriteString(" AS " + ident(it.Label()))
			}
		case query.Embed:
			expr, err := b.embed(n, it)
			if err != nil {
				return err
			}
			if expr != "" {
				sep()
				sb.WriteString(expr)
			}
		}
	}
	if first { // only hidden embeds: keep the SQL valid
		sb.WriteString("NULL AS " + ident("?column?"))
	}
	return nil
}

// embed renders a correlated subquery for an embedded resource. An !inner
// embed also adds an EXISTS condition to the parent's WHERE (b.pending).
func (b *builder) embed(parent node, it query.Item) (string, error) {
	if parent.table == nil {
		return "", apierr.NoRelationship(parent.alias, it.Name)
	}
	rels := b.c.Relationships(parent.table, it.Name, it.Hint)
	switch {
	case len(rels) == 0:
		return "", apierr.NoRelationship(parent.table.Name, it.Name)
	case len(rels) > 1:
		var names []string
		for _, r := range rels {
			names = append(names, it.Name+"!"+r.FK.Name)
		}
		return "", apierr.AmbiguousRelationship(parent.table.Name, it.Name, names)
	}
	r := rels[0]
	child := node{
		table: r.Target,
		from:  ident(r.Target.Schema, r.Target.Name),
		alias: b.alias(r.Target.Name),
		items: it.Children,
		path:  joinPath(parent.path, it.Label()),
	}
	if r.Card == schema.ManyToMany {
		j := b.alias(r.Junction.Name)
		child.join = ", " + ident(r.Junction.Schema, r.Junction.Name) + " AS " + ident(j)
		for i := range r.TargetCols {
			child.conds = append(child.conds, col(j, r.JunctionToTarget[i])+" = "+col(child.alias, r.TargetCols[i]))
		}
		for i := range r.ParentCols {
			child.conds = append(child.conds, col(j, r.JunctionToParent[i])+" = "+col(parent.alias, r.ParentCols[i]))
		}
	} else {
		for i := range r.TargetCols {
			child.conds = append(child.conds, col(child.alias, r.TargetCols[i])+" = "+col(parent.alias, r.ParentCols[i]))
		}
	}
	inner, err := b.sql(child)
	if err != nil {
		return "", err
	}
	if it.Inner {
		b.pending = append(b.pending, "EXISTS ("+inner+")")
	}
	if len(it.Children) == 0 {
		return "", nil
	}
	label := ident(it.Label())
	if r.Card == schema.ManyToOne || r.Card == schema.OneToOne {
		return "(SELECT row_to_json(_pgrst_e) FROM (" + inner + ") _pgrst_e) AS " + label, nil
	}
	return "COALESCE((SELECT json_agg(_pgrst_e) FROM (" + inner + ") _pgrst_e), '[]') AS " + label, nil
}

func joinPath(parent, label string) string {
	if parent == "" {
		return label
	}
	return parent + "." + label
}
