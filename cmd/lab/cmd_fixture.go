package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/pgrst-lab/pgrst-lab/host/stack"
	"github.com/pgrst-lab/pgrst-lab/internal/fixture"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
	"github.com/pgrst-lab/pgrst-lab/loadgen"
)

func init() {
	register(command{name: "fixture", summary: "fill the stack's database: generated Chinook, or SQL files", run: cmdFixture})
}

const fixtureUsage = `fixture chinook|load|compare [flags] [FILE.sql...]

  chinook  generate a Chinook-shaped data set (deterministic from --seed) with the
           benchmark's functions, roles and grants
  load     load SQL files instead, in order (e.g. chinook.sql bench.sql)
  compare  the real Chinook (--real-dir) against the generated one: shapes, and the
           target's answers to every built-in scenario's requests (docs/scenarios.md)

The database is rebuilt under a temporary name and swapped in only when
everything loaded; a running target is told to reload its schema cache, and
the command returns only when the target serves the new database: its admin
/ready answers 200 and a table of the fixture answers (chinook: artist;
load: the table given with --probe), within --wait.`

func cmdFixture(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("fixture", fixtureUsage, stdout)
	dir := fs.String("dir", stack.DefaultDir, "state directory of the stack")
	db := fs.String("db", stack.Database, "database to fill (replaced)")
	seed, tables := fs.Uint64("seed", fixture.DefaultSeed, "chinook: seed of the generator"), fixture.TableCounts{}
	fs.Var(&tables, "tables", "chinook: also generated schemas gen<N> of N tables each, e.g. 1000,10000 (schema-reload, memory-growth)")
	rows := fs.Int("rows", 0, "chinook: also public."+fixture.RowsTable+" of this many rows, e.g. 1000000 (large-responses)")
	lt := fs.Bool("postgrest-loadtest", false, "chinook: also PostgREST's own load-test schema, test (postgrest-loadtest)")
	wait := fs.Duration("wait", stack.DefaultServesTimeout, "how long to wait until the target serves the new database")
	probe := fs.String("probe", "", "load: a table of the loaded SQL to probe on the target (default: only /ready)")
	realDir, md := fs.String("real-dir", "", "compare: the directory of the real chinook.sql and bench.sql"), fs.String("markdown", "", "compare: also write the comparison to this Markdown file")
	sub, rest := splitSub(args)
	if help, err := parseFlags(fs, rest); help || err != nil {
		return err
	}
	if sub == "" {
		return usageErrorf("fixture: say chinook or load")
	}
	s, err := stack.Open(*dir)
	if err != nil {
		return fmt.Errorf("fixture %s: %w", sub, err)
	}
	defer s.Close()
	admin := s.AdminURI("postgres")
	switch sub {
	case "chinook":
		if fs.NArg() > 0 {
			return usageErrorf("fixture chinook takes no files (use fixture load)")
		}
		res, err := fixture.ChinookWith(ctx, admin, *db, *seed, fixture.Extra{Tables: tables, Rows: *rows, Loadtest: *lt})
		if err != nil {
			return fmt.Errorf("fixture chinook: %w", err)
		}
		fmt.Fprintf(stdout, "generated Chinook (seed %d): %d rows in database %s, %v\n", *seed, res.Rows, res.DB, res.Duration.Round(1e6))
		return waitServes(ctx, s, *db, "artist", *wait, stdout)
	case "load":
		if fs.NArg() == 0 {
			return usageErrorf("fixture load: give one or more SQL files")
		}
		res, err := fixture.LoadFiles(ctx, admin, *db, fs.Args()...)
		if err != nil {
			return fmt.Errorf("fixture load: %w", err)
		}
		fmt.Fprintf(stdout, "loaded %d file(s) into database %s, %v\n", fs.NArg(), res.DB, res.Duration.Round(1e6))
		return waitServes(ctx, s, *db, *probe, *wait, stdout)
	case "compare":
		if *realDir == "" || fs.NArg() > 0 || *db != stack.Database {
			return usageErrorf("fixture compare: give --real-dir DIR (and no files; it fills the served database %s)", stack.Database)
		}
		return fixtureCompare(ctx, s, *realDir, *seed, *wait, *md, stdout)
	}
	return usageErrorf("fixture %q: allowed: chinook, load, compare", sub)
}

// fixtureCompare fills the served database with the real Chinook, then the
// generated one, measures each through the target, prints and writes the comparison.
func fixtureCompare(ctx context.Context, s *stack.Stack, realDir string, seed uint64, wait time.Duration, md string, stdout io.Writer) error {
	st, err := s.Status(ctx)
	if err != nil || st.Target == nil {
		return fmt.Errorf("fixture compare: the stack runs no target (lab stack up): %v", err)
	}
	admin, sides := s.AdminURI("postgres"), []loadgen.FixtureSide{}
	for _, name := range []string{"real", "generated"} {
		fmt.Fprintf(stdout, "loading the %s Chinook and asking %s\n", name, st.URL)
		if name == "real" {
			_, err = fixture.LoadFiles(ctx, admin, stack.Database, filepath.Join(realDir, "chinook.sql"), filepath.Join(realDir, "bench.sql"))
		} else {
			_, err = fixture.Chinook(ctx, admin, stack.Database, seed)
		}
		if err == nil {
			err = waitServes(ctx, s, stack.Database, "artist", wait, io.Discard)
		}
		side, err2 := loadgen.MeasureFixture(ctx, name, s.AdminURI(stack.Database), st.URL)
		if err = errors.Join(err, err2); err != nil {
			return fmt.Errorf("fixture compare: %s: %w", name, err)
		}
		sides = append(sides, side)
	}
	out := loadgen.FixtureComparison(sides)
	if _, err = io.WriteString(stdout, out); err == nil && md != "" {
		err = format.WriteFile(md, []byte("# Generated and real Chinook\n\n"+out))
	}
	return err
}

// waitServes returns when the stack's target serves the database just
// filled (only the stack's own database is served).
func waitServes(ctx context.Context, s *stack.Stack, db, table string, wait time.Duration, stdout io.Writer) error {
	if db != stack.Database {
		return nil
	}
	took, err := s.WaitServes(ctx, table, wait)
	if err != nil {
		return fmt.Errorf("fixture: %w", err)
	}
	if took > 0 {
		fmt.Fprintf(stdout, "the target serves the new database (after %v)\n", took.Round(time.Millisecond))
	}
	return nil
}
