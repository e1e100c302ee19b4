package schema

import "slices"

// Cardinality of an embed.
type Cardinality int

const (
	ManyToOne  Cardinality = iota // the embed is an object (or null)
	OneToMany                     // the embed is an array
	ManyToMany                    // through a junction table; an array
	OneToOne                      // a one-to-many whose foreign key is also a key: an object
)

// Relationship joins a parent table to an embedded one through a foreign key.
// Join condition: Target.TargetCols[i] = Parent.ParentCols[i].
type Relationship struct {
	Card       Cardinality
	FK         FK
	Target     *Table
	ParentCols []string
	TargetCols []string

	// ManyToMany only: Junction(JunctionToParent) references Parent(ParentCols)
	// and Junction(JunctionToTarget) references Target(TargetCols).
	Junction         *Table
	JunctionFK       FK // the junction's key to the target
	JunctionToParent []string
	JunctionToTarget []string
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
			card := OneToMany
			if target.IsKey(fk.Columns) {
				card = OneToOne
			}
			out = append(out, Relationship{Card: card, FK: fk, Target: target, ParentCols: fk.RefColumns, TargetCols: fk.Columns})
		}
	}
	return append(out, c.manyToMany(parent, target, hint)...)
}

// manyToMany finds junction tables J (other than parent and target) with a
// foreign key to parent and one to target. A hint selects the junction by
// name or either foreign key by name.
func (c *Cache) manyToMany(parent, target *Table, hint string) []Relationship {
	var out []Relationship
	for _, toParent := range c.fks {
		if toParent.RefSchema != parent.Schema || toParent.RefTable != parent.Name {
			continue
		}
		if toParent.Table == parent.Name && toParent.Schema == parent.Schema || toParent.Table == target.Name && toParent.Schema == target.Schema {
			continue
		}
		for _, toTarget := range c.fks {
			if toTarget.Schema != toParent.Schema || toTarget.Table != toParent.Table || toTarget.Name == toParent.Name ||
				toTarget.RefSchema != target.Schema || toTarget.RefTable != target.Name {
				continue
			}
			if hint != "" && hint != toParent.Table && hint != toParent.Name && hint != toTarget.Name {
				continue
			}
			j, ok := c.tables[qname{toParent.Schema, toParent.Table}]
			if !ok {
				continue
			}
			out = append(out, Relationship{Card: ManyToMany, FK: toParent, Target: target,
				ParentCols: toParent.RefColumns, TargetCols: toTarget.RefColumns,
				Junction: j, JunctionFK: toTarget, JunctionToParent: toParent.Columns, JunctionToTarget: toTarget.Columns})
		}
	}
	return out
}
