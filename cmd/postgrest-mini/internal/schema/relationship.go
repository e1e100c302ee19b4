package schema

import "slices"

// Cardinality of an embed.
type Cardinality int

const (
	ManyToOne Cardinality = iota // the embed is an object (or null)
	OneToMany                    // the embed is an array
)

// Relationship joins a parent table to an embedded one through a foreign key.
// Join condition: Target.TargetCols[i] = Parent.ParentCols[i].
type Relationship struct {
	Card       Cardinality
	FK         FK
	Target     *Table
	ParentCols []string
	TargetCols []string
}

// Relationships finds the ways to embed name (a table in parent's schema)
// under parent. hint, when not empty, keeps only relationships whose foreign
// key name or (single) column name equals it.
func (c *Cache) Relationships(parent *Table, name, hint string) []Relationship {
	target, ok := c.tables[qname{parent.Schema, name}]
	if !ok {
		return nil
	}
	var out []Relationship
	for _, fk := range c.fks {
		if hint != "" && fk.Name != hint && !slices.Contains(fk.Columns, hint) && !slices.Contains(fk.RefColumns, hint) {
			continue
		}
		if fk.Schema == parent.Schema && fk.Table == parent.Name && fk.RefSchema == target.Schema && fk.RefTable == target.Name {
			out = append(out, Relationship{Card: ManyToOne, FK: fk, Target: target, ParentCols: fk.Columns, TargetCols: fk.RefColumns})
		}
		if fk.RefSchema == parent.Schema && fk.RefTable == parent.Name && fk.Schema == target.Schema && fk.Table == target.Name {
			out = append(out, Relationship{Card: OneToMany, FK: fk, Target: target, ParentCols: fk.RefColumns, TargetCols: fk.Columns})
		}
	}
	return out
}
