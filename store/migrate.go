package store

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
)

// Schema is the PostgreSQL schema that holds every table of the store.
const Schema = "pgrst_lab"

// migrationLock is the key of the advisory lock migrations hold (any
// constant: "pgrst-lab store" as a number).
const migrationLock int64 = 0x7067_7273_746c_6162

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migration is one numbered SQL file of migrations/.
type migration struct {
	Version int
	Name    string
	SQL     string
}

// migrations are the embedded migrations in order; their numbers are 1..n
// without gaps (a test checks it).
func migrations() ([]migration, error) {
	ents, err := fs.ReadDir(migrationFiles, "migrations")
	if err != nil {
		return nil, err
	}
	var out []migration
	for _, e := range ents {
		num, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || !strings.HasSuffix(e.Name(), ".sql") {
			return nil, fmt.Errorf("migration %s: want NNNN_name.sql", e.Name())
		}
		b, err := migrationFiles.ReadFile(path.Join("migrations", e.Name()))
		if err != nil {
			return nil, err
		}
		out = append(out, migration{Version: v, Name: e.Name(), SQL: string(b)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Version < out[j].Version })
	for i, m := range out {
		if m.Version != i+1 {
			return nil, fmt.Errorf("migration %s: want number %d", m.Name, i+1)
		}
	}
	return out, nil
}

// SchemaVersion is the newest schema this lab knows: the number of its
// last migration.
func SchemaVersion() int {
	ms, err := migrations()
	if err != nil || len(ms) == 0 {
		return 0
	}
	return ms[len(ms)-1].Version
}

// SchemaTooNewError is the error of a store whose schema a newer lab
// migrated: this lab could misread it or write rows the newer one does not
// expect, so it refuses it.
type SchemaTooNewError struct {
	Store int // the store's schema version
	Known int // the newest this lab knows
}

func (e *SchemaTooNewError) Error() string {
	return fmt.Sprintf("the store's schema is version %d, newer than this lab's %d: upgrade the lab", e.Store, e.Known)
}

// migrate brings the store's schema to the newest version, in one
// transaction under the advisory lock; it returns how many migrations it
// applied.
func migrate(ctx context.Context, conn interface {
	Begin(context.Context) (pgx.Tx, error)
}) (applied int, err error) {
	ms, err := migrations()
	if err != nil {
		return 0, err
	}
	tx, err := conn.Begin(ctx)
	if err != nil {
		return 0, fmt.Errorf("migrate: %w", err)
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	// The lock comes first, so that CREATE ... IF NOT EXISTS below never
	// races another runner's.
	if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", migrationLock); err != nil {
		return 0, fmt.Errorf("migrate: lock: %w", err)
	}
	if _, err := tx.Exec(ctx, `CREATE SCHEMA IF NOT EXISTS `+Schema+`;
CREATE TABLE IF NOT EXISTS `+Schema+`.lab_schema_migrations (
    version    integer PRIMARY KEY,
    name       text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
)`); err != nil {
		return 0, fmt.Errorf("migrate: %w", err)
	}
	var current int
	if err := tx.QueryRow(ctx, "SELECT coalesce(max(version), 0) FROM "+Schema+".lab_schema_migrations").Scan(&current); err != nil {
		return 0, fmt.Errorf("migrate: %w", err)
	}
	known := 0
	if len(ms) > 0 {
		known = ms[len(ms)-1].Version
	}
	if current > known {
		return 0, &SchemaTooNewError{Store: current, Known: known}
	}
	for _, m := range ms[current:] {
		if _, err := tx.Exec(ctx, m.SQL); err != nil {
			return 0, fmt.Errorf("migration %s: %w", m.Name, err)
		}
		if _, err := tx.Exec(ctx, "INSERT INTO "+Schema+".lab_schema_migrations (version, name) VALUES ($1, $2)", m.Version, m.Name); err != nil {
			return 0, fmt.Errorf("migration %s: %w", m.Name, err)
		}
		applied++
	}
	if err := tx.Commit(ctx); err != nil {
		return 0, fmt.Errorf("migrate: %w", err)
	}
	return applied, nil
}
