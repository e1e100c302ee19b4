package schema

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Querier is what Load needs (a *pgx.Conn, pgxpool.Pool or pgx.Tx).
type Querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

const tablesSQL = `
SELECT n.nspname, c.relname, c.relkind::text, a.attname, format_type(a.atttypid, a.atttypmod),
       a.attnotnull, a.atthasdef
FROM pg_catalog.pg_class c
JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
WHERE c.relkind IN ('r', 'v', 'm', 'f', 'p') AND n.nspname = ANY($1)
ORDER BY n.nspname, c.relname, a.attnum`

const keysSQL = `
SELECT n.nspname, t.relname,
       array(SELECT a.attname FROM unnest(c.conkey) k(num)
             JOIN pg_catalog.pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.num ORDER BY a.attname)::text[]
FROM pg_catalog.pg_constraint c
JOIN pg_catalog.pg_class t ON t.oid = c.conrelid
JOIN pg_catalog.pg_namespace n ON n.oid = t.relnamespace
WHERE c.contype IN ('p', 'u') AND n.nspname = ANY($1)`

const fksSQL = `
SELECT c.conname, n1.nspname, t1.relname,
       array(SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY k(num, ord)
             JOIN pg_catalog.pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.num ORDER BY k.ord)::text[],
       n2.nspname, t2.relname,
       array(SELECT a.attname FROM unnest(c.confkey) WITH ORDINALITY k(num, ord)
             JOIN pg_catalog.pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.num ORDER BY k.ord)::text[]
FROM pg_catalog.pg_constraint c
JOIN pg_catalog.pg_class t1 ON t1.oid = c.conrelid
JOIN pg_catalog.pg_namespace n1 ON n1.oid = t1.relnamespace
JOIN pg_catalog.pg_class t2 ON t2.oid = c.confrelid
JOIN pg_catalog.pg_namespace n2 ON n2.oid = t2.relnamespace
WHERE c.contype = 'f' AND (n1.nspname = ANY($1) OR n2.nspname = ANY($1))
ORDER BY c.conname`

const funcsSQL = `
SELECT n.nspname, p.proname, p.proretset, p.provolatile::text, format_type(p.prorettype, NULL),
       (t.typtype = 'c' OR p.prorettype = 'pg_catalog.record'::regtype) AS composite,
       coalesce(rn.nspname, ''), coalesce(rc.relname, ''),
       coalesce(p.proargnames, '{}')::text[], coalesce(p.proargmodes::text[], '{}'),
       array(SELECT format_type(x.t, NULL) FROM unnest(p.proargtypes) WITH ORDINALITY x(t, ord) ORDER BY x.ord)::text[],
       p.pronargdefaults
FROM pg_catalog.pg_proc p
JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
JOIN pg_catalog.pg_type t ON t.oid = p.prorettype
LEFT JOIN pg_catalog.pg_class rc ON rc.oid = t.typrelid AND t.typrelid <> 0
LEFT JOIN pg_catalog.pg_namespace rn ON rn.oid = rc.relnamespace
WHERE n.nspname = ANY($1) AND p.prokind = 'f'
ORDER BY n.nspname, p.proname`

// Load reads the schema cache for the exposed schemas.
func Load(ctx context.Context, q Querier, schemas []string) (*Cache, error) {
	start := time.Now()
	tables, err := loadTables(ctx, q, schemas)
	if err != nil {
		return nil, fmt.Errorf("schema cache: tables: %w", err)
	}
	if err := loadKeys(ctx, q, schemas, tables); err != nil {
		return nil, fmt.Errorf("schema cache: keys: %w", err)
	}
	fks, err := loadFKs(ctx, q, schemas)
	if err != nil {
		return nil, fmt.Errorf("schema cache: foreign keys: %w", err)
	}
	funcs, err := loadFuncs(ctx, q, schemas)
	if err != nil {
		return nil, fmt.Errorf("schema cache: functions: %w", err)
	}
	c := New(schemas, tables, fks, funcs)
	c.Took = time.Since(start)
	return c, nil
}

func loadTables(ctx context.Context, q Querier, schemas []string) ([]*Table, error) {
	rows, err := q.Query(ctx, tablesSQL, schemas)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*Table
	var cur *Table
	for rows.Next() {
		var sch, rel, kind string
		var col Column
		if err := rows.Scan(&sch, &rel, &kind, &col.Name, &col.Type, &col.NotNull, &col.HasDefault); err != nil {
			return nil, err
		}
		if cur == nil || cur.Schema != sch || cur.Name != rel {
			cur = &Table{Schema: sch, Name: rel, Kind: kind}
			out = append(out, cur)
		}
		cur.Columns = append(cur.Columns, col)
	}
	return out, rows.Err()
}

func loadKeys(ctx context.Context, q Querier, schemas []string, tables []*Table) error {
	byName := map[qname]*Table{}
	for _, t := range tables {
		byName[qname{t.Schema, t.Name}] = t
	}
	rows, err := q.Query(ctx, keysSQL, schemas)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var sch, rel string
		var cols []string
		if err := rows.Scan(&sch, &rel, &cols); err != nil {
			return err
		}
		if t := byName[qname{sch, rel}]; t != nil {
			t.Keys = append(t.Keys, cols)
		}
	}
	return rows.Err()
}

func loadFKs(ctx context.Context, q Querier, schemas []string) ([]FK, error) {
	rows, err := q.Query(ctx, fksSQL, schemas)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []FK
	for rows.Next() {
		var fk FK
		if err := rows.Scan(&fk.Name, &fk.Schema, &fk.Table, &fk.Columns, &fk.RefSchema, &fk.RefTable, &fk.RefColumns); err != nil {
			return nil, err
		}
		out = append(out, fk)
	}
	return out, rows.Err()
}

func loadFuncs(ctx context.Context, q Querier, schemas []string) ([]*Function, error) {
	rows, err := q.Query(ctx, funcsSQL, schemas)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*Function
	for rows.Next() {
		f := &Function{}
		var vol string
		var names, modes, types []string
		var ndefaults int16
		if err := rows.Scan(&f.Schema, &f.Name, &f.RetSet, &vol, &f.RetType, &f.Composite, &f.retSchema, &f.retName,
			&names, &modes, &types, &ndefaults); err != nil {
			return nil, err
		}
		if vol != "" {
			f.Volatility = vol[0]
		}
		f.Params = inputParams(names, modes, types, int(ndefaults))
		out = append(out, f)
	}
	return out, rows.Err()
}

// inputParams pairs input argument names with proargtypes. proargnames
// covers all arguments (OUT included) when proargmodes is set; proargtypes
// only the input ones. The last ndefaults inputs have defaults.
func inputParams(names, modes, types []string, ndefaults int) []Param {
	var inNames []string
	for i, n := range names {
		mode := "i"
		if i < len(modes) {
			mode = modes[i]
		}
		if mode == "i" || mode == "b" || mode == "v" {
			inNames = append(inNames, n)
		}
	}
	params := make([]Param, len(types))
	for i, t := range types {
		params[i].Type = t
		if i < len(inNames) {
			params[i].Name = inNames[i]
		}
		params[i].HasDefault = i >= len(types)-ndefaults
	}
	return params
}
