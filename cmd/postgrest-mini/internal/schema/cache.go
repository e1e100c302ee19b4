package schema

import (
	"slices"
	"time"
)

// Column of a table or view.
type Column struct {
	Name       string
	Type       string // format_type()
	NotNull    bool
	HasDefault bool
}

// Table is a table, view, materialized view, foreign or partitioned table.
type Table struct {
	Schema  string
	Name    string
	Kind    string // pg_class.relkind
	Columns []Column
	Keys    [][]string // primary key and unique constraints, columns sorted
	colIdx  map[string]int
}

// IsKey reports whether cols (any order) are exactly a primary or unique key.
func (t *Table) IsKey(cols []string) bool {
	s := slices.Clone(cols)
	slices.Sort(s)
	for _, k := range t.Keys {
		if slices.Equal(k, s) {
			return true
		}
	}
	return false
}

// Column returns the column named name.
func (t *Table) Column(name string) (Column, bool) {
	i, ok := t.colIdx[name]
	if !ok {
		return Column{}, false
	}
	return t.Columns[i], true
}

// FK is a foreign key: Table(Columns) references RefTable(RefColumns).
type FK struct {
	Name       string
	Schema     string
	Table      string
	Columns    []string
	RefSchema  string
	RefTable   string
	RefColumns []string
}

// Param is an input parameter of a function.
type Param struct {
	Name       string
	Type       string
	HasDefault bool
}

// Function is a callable function (overloads are separate Functions).
type Function struct {
	Schema     string
	Name       string
	Params     []Param
	RetSet     bool
	RetType    string // format_type() of the return type
	Composite  bool   // returns rows (a table type, a composite, or TABLE/OUT params)
	RetTable   *Table // the table whose row type it returns, nil otherwise
	Volatility byte   // 'i', 's', 'v'

	retSchema, retName string // relation of the returned row type, if any
}

// Cache is a loaded schema cache.
type Cache struct {
	Schemas  []string // exposed schemas, the first is the default
	tables   map[qname]*Table
	fks      []FK
	funcs    map[qname][]*Function
	LoadedAt time.Time
	Took     time.Duration
}

type qname struct{ schema, name string }

// Table finds a table or view in schema.
func (c *Cache) Table(schema, name string) (*Table, bool) {
	t, ok := c.tables[qname{schema, name}]
	return t, ok
}

// Functions returns the overloads of schema.name.
func (c *Cache) Functions(schema, name string) []*Function {
	return c.funcs[qname{schema, name}]
}

// TableNames lists the tables of schema (for the root OpenAPI document).
func (c *Cache) TableNames(schema string) []string {
	var out []string
	for q := range c.tables {
		if q.schema == schema {
			out = append(out, q.name)
		}
	}
	return out
}

// FunctionNames lists the functions of schema.
func (c *Cache) FunctionNames(schema string) []string {
	var out []string
	for q := range c.funcs {
		if q.schema == schema {
			out = append(out, q.name)
		}
	}
	return out
}

// Counts gives the number of tables, foreign keys and functions.
func (c *Cache) Counts() (tables, fks, funcs int) { return len(c.tables), len(c.fks), len(c.funcs) }

// New builds a cache from parts (used by Load and by unit tests).
func New(schemas []string, tables []*Table, fks []FK, funcs []*Function) *Cache {
	c := &Cache{Schemas: schemas, tables: map[qname]*Table{}, fks: fks, funcs: map[qname][]*Function{}, LoadedAt: time.Now()}
	for _, t := range tables {
		t.colIdx = map[string]int{}
		for i, col := range t.Columns {
			t.colIdx[col.Name] = i
		}
		c.tables[qname{t.Schema, t.Name}] = t
	}
	for _, f := range funcs {
		if f.Composite && f.RetTable == nil {
			if t, ok := c.tables[qname{f.retSchema, f.retName}]; ok {
				f.RetTable = t
			}
		}
		k := qname{f.Schema, f.Name}
		c.funcs[k] = append(c.funcs[k], f)
	}
	return c
}
